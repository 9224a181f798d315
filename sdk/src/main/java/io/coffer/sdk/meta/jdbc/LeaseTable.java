package io.coffer.sdk.meta.jdbc;

import static io.coffer.sdk.meta.jdbc.Columns.millis;

import io.coffer.sdk.meta.Lease;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;

/**
 * Maintenance leases: taken, renewed and released in one transaction each, the row locked while it is decided
 * (PostgreSQL), so two gateways asking at once see one winner.
 */
final class LeaseTable extends Table {
    LeaseTable(Database db) {
        super(db);
    }

    Lease acquire(String name, String holder, Instant now, Instant until) {
        return db.write("acquireLease", c -> {
            try (PreparedStatement ps = prepare(c, "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?) "
                    + "ON CONFLICT (name) DO NOTHING")) {
                bind(ps, name, holder, millis(until));
                if (ps.executeUpdate() == 1) {
                    return new Lease(name, holder, Instant.ofEpochMilli(millis(until)));
                }
            }
            List<Lease> current = rows(c, "SELECT holder, expires FROM leases WHERE name = ?" + dialect.forUpdate,
                    rs -> new Lease(name, rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))), name);
            Lease lease = current.get(0);
            if (!lease.holder().equals(holder) && lease.expires().isAfter(now)) {
                return lease;
            }
            try (PreparedStatement ps = prepare(c, "UPDATE leases SET holder = ?, expires = ? WHERE name = ?")) {
                bind(ps, holder, millis(until), name);
                ps.executeUpdate();
            }
            return new Lease(name, holder, Instant.ofEpochMilli(millis(until)));
        });
    }

    void release(String name, String holder) {
        db.write("releaseLease", c -> {
            try (PreparedStatement ps = prepare(c, "DELETE FROM leases WHERE name = ? AND holder = ?")) {
                bind(ps, name, holder);
                ps.executeUpdate();
            }
            return null;
        });
    }
}
