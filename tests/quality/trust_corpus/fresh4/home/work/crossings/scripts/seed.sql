insert into vessel (name, capacity) values ('MV Skerry', 240), ('MV Gannet', 180);
