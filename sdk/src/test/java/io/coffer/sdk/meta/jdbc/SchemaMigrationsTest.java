package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SchemaMigrationsTest {
    @Test
    void everySchemaVersionHasStatementsForEachDialect() {
        for (Dialect dialect : Dialect.values()) {
            for (int v = 1; v <= SchemaMigrations.SCHEMA_VERSION; v++) {
                assertThat(SchemaMigrations.schemaStatements(dialect.name, v))
                        .as("%s schema version %d", dialect.name, v).isNotEmpty().noneMatch(String::isBlank);
            }
        }
    }
}
