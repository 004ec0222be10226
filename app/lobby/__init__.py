"""The HTTP API of tables: create a table, take a seat, table info, score sheet, rejoin link."""
