create table vessel (id bigserial primary key, name text, capacity int not null);
