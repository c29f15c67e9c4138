create table invoice (id bigserial primary key);
