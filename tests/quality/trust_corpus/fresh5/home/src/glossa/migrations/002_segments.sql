CREATE TABLE segment (id bigserial PRIMARY KEY, source_text text NOT NULL);
