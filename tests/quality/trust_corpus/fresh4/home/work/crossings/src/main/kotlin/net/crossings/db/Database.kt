package net.crossings.db

// HikariDataSource + DSL.using(dataSource, SQLDialect.POSTGRES)
