package dev.hindsight.testing.planted.sales;

/** Offered by its package. */
public final class Orders {

    private Orders() {
    }

    /** Nested in an offered type: offered too. */
    public record Line(String sku, int quantity) {
    }

    public static int count() {
        return 0;
    }
}
