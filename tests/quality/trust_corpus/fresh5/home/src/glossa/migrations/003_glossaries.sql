CREATE TABLE glossary (id bigserial PRIMARY KEY, tenant_id bigint NOT NULL);
