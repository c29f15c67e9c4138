create table booking (id bigserial primary key, sailing_id bigint references sailing(id), seats int not null);
