#!/bin/sh
# Run once by the postgres image when it creates the database: let the replica service stream
# from this server with the same password as the app (docker-compose.yml, profile "scale").
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
