-- +goose Up
CREATE TABLE customers (id uuid PRIMARY KEY, name text NOT NULL);
-- +goose Down
DROP TABLE customers;
