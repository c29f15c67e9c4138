-- +goose Up
CREATE TABLE invoices (id uuid PRIMARY KEY, customer_id uuid REFERENCES customers, total_cents bigint NOT NULL);
-- +goose Down
DROP TABLE invoices;
