package io.coffer.gateway.auth;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The access keys the gateway accepts, looked up by access key id. Immutable. */
public final class CredentialStore {
    private final Map<String, Credential> byAccessKey;

    public CredentialStore(Collection<Credential> credentials) {
        this.byAccessKey = Map.copyOf(credentials.stream()
                .collect(Collectors.toMap(Credential::accessKeyId, Function.identity(), (a, b) -> {
                    throw new IllegalArgumentException("duplicate access key " + a.accessKeyId());
                })));
    }

    public static CredentialStore of(Credential... credentials) {
        return new CredentialStore(List.of(credentials));
    }

    public Optional<Credential> find(String accessKeyId) {
        return Optional.ofNullable(byAccessKey.get(accessKeyId));
    }

    public Collection<Credential> all() {
        return byAccessKey.values();
    }
}
