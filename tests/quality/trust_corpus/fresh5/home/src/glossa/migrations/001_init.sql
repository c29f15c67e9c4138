CREATE TABLE tenant (id bigserial PRIMARY KEY, name text NOT NULL);
