package io.coffer.gateway.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.Provider;
import java.security.Security;
import java.util.Locale;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs Amazon Corretto Crypto Provider (ACCP: AWS-LC through JNI) in a gateway process right after the JDK's
 * SUN provider and before every other, so that every {@code Cipher} and {@code Mac} lookup by algorithm name (none in
 * Coffer names a provider) gets ACCP's AES-GCM and HMAC, while SUN keeps the digests (MD5, SHA-256) and
 * SecureRandom, and what ACCP does not implement (AES-CTR, for one) stays SunJCE's.
 *
 * <p>Why: ACCP's AES-256-GCM took 40 % less CPU than the JDK's on a CPU without VAES (a large GET's decryption);
 * its MD5 and SHA-256 took slightly more, hence the place after SUN (docs/BENCHMARKS.md, issue 23;
 * docs/DECISIONS.md, "Native crypto provider").
 *
 * <p>Only {@code coffer serve} calls this, from its {@code main}: a program that embeds the engine (the sdk) or runs
 * the command line in-process keeps its own provider order unless it calls {@link #install} itself. Turned off by
 * {@code COFFER_NATIVE_CRYPTO=off} (or the system property {@code coffer.nativeCrypto=off}). Where the native library
 * cannot load (another OS or architecture: the jar carries linux-x86_64 only) it logs one line and leaves the JDK's
 * providers as they are.
 */
public final class NativeCrypto {
    private static final Logger LOG = LoggerFactory.getLogger(NativeCrypto.class);
    /** The environment variable that turns the native provider off: {@code off}, {@code false} or {@code 0}. */
    public static final String ENV = "COFFER_NATIVE_CRYPTO";
    /** The system property that does the same (it wins over the environment). */
    public static final String PROPERTY = "coffer.nativeCrypto";

    /** What {@link #install} did. */
    public enum Outcome {
        /** ACCP is installed right after SUN. */
        INSTALLED,
        /** Turned off by the setting; the JDK's providers are untouched. */
        DISABLED,
        /** ACCP's native library did not load or failed its self-test; the JDK's providers are untouched. */
        UNAVAILABLE
    }

    /** Where the provider comes from: ACCP's singleton in production, another in the fallback's test. */
    interface Source {
        /** The provider, or null with {@link #loadingError} saying why it cannot be used. */
        Provider provider();

        Throwable loadingError();
    }

    static final Source ACCP = new Source() {
        @Override
        public Provider provider() {
            return loadingError() == null ? AmazonCorrettoCryptoProvider.INSTANCE : null;
        }

        @Override
        public Throwable loadingError() {
            try {
                Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
                if (error == null) {
                    AmazonCorrettoCryptoProvider.INSTANCE.assertHealthy();
                }
                return error;
            } catch (RuntimeException | LinkageError e) {
                return e;
            }
        }
    };

    private NativeCrypto() {
    }

    /** {@link #install(String, Source)} with the setting of this process (property, else environment). */
    public static Outcome installFromSettings() {
        return installFromSettings(System::getenv);
    }

    static Outcome installFromSettings(Function<String, String> env) {
        String setting = System.getProperty(PROPERTY);
        return install(setting != null ? setting : env.apply(ENV), ACCP);
    }

    /** Installs ACCP after SUN unless {@code setting} turns it off (null or empty: on). */
    public static Outcome install(String setting) {
        return install(setting, ACCP);
    }

    static Outcome install(String setting, Source source) {
        if (!enabled(setting)) {
            LOG.info("native crypto provider off ({} or {} = {}): the JDK's providers", ENV, PROPERTY, setting);
            return Outcome.DISABLED;
        }
        Provider provider;
        Throwable error;
        try {
            error = source.loadingError();
            provider = error == null ? source.provider() : null;
        } catch (LinkageError e) {
            // the class itself may fail to link where the jar's native part is missing
            error = e;
            provider = null;
        }
        if (provider == null) {
            LOG.warn("native crypto provider unavailable, using the JDK's providers: {}",
                    error == null ? "no provider" : error.toString());
            return Outcome.UNAVAILABLE;
        }
        int position;
        synchronized (NativeCrypto.class) {
            Security.removeProvider(provider.getName());
            position = positionAfterSun();
            Security.insertProviderAt(provider, position);
        }
        LOG.info("native crypto provider installed at position {}, after SUN: {} {}", position, provider.getName(),
                provider.getVersionStr());
        return Outcome.INSTALLED;
    }

    /**
     * The 1-based position right after the JDK's SUN provider (1 without it): SUN keeps MD5, SHA-256 and SecureRandom,
     * which ACCP does not run faster (its MD5 and SHA-256 took 2-5 % more CPU than the JDK's, ProviderCryptoCpuTime),
     * while ACCP comes before SunJCE and so serves AES-GCM and HMAC.
     */
    private static int positionAfterSun() {
        Provider[] providers = Security.getProviders();
        for (int i = 0; i < providers.length; i++) {
            if (providers[i].getName().equals("SUN")) {
                return i + 2;
            }
        }
        return 1;
    }

    /** Whether a setting value means on: anything but off, false, no or 0 (case-insensitive); unset means on. */
    static boolean enabled(String setting) {
        if (setting == null || setting.isBlank()) {
            return true;
        }
        String s = setting.trim().toLowerCase(Locale.ROOT);
        if (s.equals("off") || s.equals("false") || s.equals("no") || s.equals("0")) {
            return false;
        }
        if (s.equals("on") || s.equals("true") || s.equals("yes") || s.equals("1")) {
            return true;
        }
        throw new IllegalArgumentException(ENV + " must be on or off, not '" + setting + "'");
    }
}
