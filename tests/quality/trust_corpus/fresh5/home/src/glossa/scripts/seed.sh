#!/bin/sh
psql -h localhost -p 5433 -U glossa -f scripts/demo.sql
