-- +goose Up
CREATE TABLE credit_notes (id uuid PRIMARY KEY, invoice_id uuid REFERENCES invoices, amount_cents bigint NOT NULL);
-- +goose Down
DROP TABLE credit_notes;
