package io.coffer.sdk.testing;

import io.coffer.sdk.meta.MetadataStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A real metadata store that counts the calls of each of its methods, to show how often a request reads it. */
public final class CountingMetadataStore {
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final MetadataStore store;

    public CountingMetadataStore(MetadataStore delegate) {
        this.store = (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
                new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                    calls.computeIfAbsent(method.getName(), n -> new AtomicInteger()).incrementAndGet();
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The counting store, to build an engine on. */
    public MetadataStore store() {
        return store;
    }

    /** Calls of the store's method {@code name} since the last {@link #reset}. */
    public int calls(String name) {
        AtomicInteger n = calls.get(name);
        return n == null ? 0 : n.get();
    }

    public void reset() {
        calls.clear();
    }
}
