package dev.hindsight.testing.planted.billing;

import dev.hindsight.testing.planted.sales.Ledgers;
import dev.hindsight.testing.planted.sales.Orders;

/** Breaks each rule once, beside uses the rules allow. */
final class Invoices {

    static final String BY_ID = "SELECT * FROM invoice WHERE invoice_id = $1";
    static final String OF_TENANT = "SELECT * FROM invoice WHERE tenant_id = $1 AND invoice_id = $2";
    static final String EXPIRE = "DELETE FROM invoice /* every tenant: retention */ WHERE due < now()";
    static final String CURRENCIES = "SELECT code FROM currency";

    private Invoices() {
    }

    static int lines(Orders.Line line) {
        return Orders.count() + line.quantity();
    }

    static int owed() {
        return Ledgers.total();
    }

    static String find(String tenant, String invoiceId) {
        return tenant + invoiceId + "INSERT INTO invoice (invoice_id) VALUES ($1)".length();
    }
}
