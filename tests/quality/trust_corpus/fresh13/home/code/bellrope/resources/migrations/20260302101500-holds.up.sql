create table holds (
  hold_id bigint generated always as identity primary key,
  reader_id bigint not null,
  biblio_id bigint not null,
  branch_code text not null,
  requested_at timestamptz not null default now(),
  pickup_by date
);
--;;
create index holds_queue on holds (biblio_id, requested_at);
