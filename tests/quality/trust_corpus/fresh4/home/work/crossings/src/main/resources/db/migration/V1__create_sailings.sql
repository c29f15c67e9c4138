create table sailing (id bigserial primary key, route text not null, departs_at timestamptz not null);
