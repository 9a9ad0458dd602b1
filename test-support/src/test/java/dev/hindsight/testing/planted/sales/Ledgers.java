package dev.hindsight.testing.planted.sales;

/** Public, but not offered by its package: another feature must not use it. */
public final class Ledgers {

    private Ledgers() {
    }

    public static int total() {
        return 0;
    }
}
