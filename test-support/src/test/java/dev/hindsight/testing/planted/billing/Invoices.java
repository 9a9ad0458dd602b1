package dev.hindsight.testing.planted.billing;

import dev.hindsight.testing.planted.sales.Ledgers;
import dev.hindsight.testing.planted.sales.Orders;

/** Breaks each rule once, beside uses the rules allow. */
final class Invoices {

    static final String BY_ID = "SELECT * FROM invoice WHERE invoice_id = $1";
    static final String OF_TENANT = "SELECT * FROM invoice WHERE tenant_id = $1 AND invoice_id = $2";
    static final String EXPIRE = "DELETE FROM invoice /* every tenant: retention */ WHERE due < now()";
    static final String CURRENCIES = "SELECT code FROM currency";
    static final String CORRELATED = "SELECT * FROM invoice i WHERE i.invoice_id = $1 "
            + "AND EXISTS (SELECT 1 FROM invoice j WHERE j.tenant_id = i.tenant_id AND j.due > i.due)";
    static final String COLUMNS = "SELECT invoice_id, due FROM invoice ";
    static final String OWN = COLUMNS + "WHERE tenant_id = $1";

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
