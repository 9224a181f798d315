package io.coffer.gateway.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeCryptoTest {
    private static final String ACCP = AmazonCorrettoCryptoProvider.PROVIDER_NAME;

    @AfterEach
    void restoreJdkProviders() {
        // the provider order is JVM-wide: leave the JDK's for the other tests of this fork
        Security.removeProvider(ACCP);
    }

    private static List<String> providerNames() {
        return Arrays.stream(Security.getProviders()).map(Provider::getName).toList();
    }

    @Test
    void installPutsAccpAfterSunSoThatCipherAndMacLookupsByNameResolveToItAndDigestsStayTheJdks() throws Exception {
        assertThat(NativeCrypto.install(null)).isEqualTo(NativeCrypto.Outcome.INSTALLED);

        assertThat(providerNames().subList(0, 2)).containsExactly("SUN", ACCP);
        assertThat(Cipher.getInstance("AES/GCM/NoPadding").getProvider().getName()).isEqualTo(ACCP);
        assertThat(Mac.getInstance("HmacSHA256").getProvider().getName()).isEqualTo(ACCP);
        assertThat(MessageDigest.getInstance("SHA-256").getProvider().getName()).isEqualTo("SUN");
        assertThat(MessageDigest.getInstance("MD5").getProvider().getName()).isEqualTo("SUN");
        assertThat(new SecureRandom().getProvider().getName()).isEqualTo("SUN");
        // what ACCP does not implement still comes from the JDK
        assertThat(Cipher.getInstance("AES/CTR/NoPadding").getProvider().getName()).isEqualTo("SunJCE");
    }

    @Test
    void installingTwiceKeepsOneEntryAfterSun() {
        NativeCrypto.install("on");
        int count = providerNames().size();

        assertThat(NativeCrypto.install("on")).isEqualTo(NativeCrypto.Outcome.INSTALLED);

        assertThat(providerNames()).hasSize(count);
        assertThat(providerNames().stream().filter(ACCP::equals)).hasSize(1);
        assertThat(providerNames().get(1)).isEqualTo(ACCP);
    }

    @Test
    void offSettingLeavesTheJdkProvidersUntouched() {
        List<String> before = providerNames();

        assertThat(NativeCrypto.install("OFF")).isEqualTo(NativeCrypto.Outcome.DISABLED);
        assertThat(NativeCrypto.installFromSettings(Map.of(NativeCrypto.ENV, "0")::get))
                .isEqualTo(NativeCrypto.Outcome.DISABLED);

        assertThat(providerNames()).isEqualTo(before).doesNotContain(ACCP);
    }

    @Test
    void unsetEnvironmentMeansOn() {
        assertThat(NativeCrypto.installFromSettings(Map.<String, String>of()::get))
                .isEqualTo(NativeCrypto.Outcome.INSTALLED);
        assertThat(providerNames()).contains(ACCP);
    }

    @Test
    void aNativeLibraryThatCannotLoadFallsBackToTheJdkProviders() {
        List<String> before = providerNames();
        NativeCrypto.Source unloadable = new NativeCrypto.Source() {
            @Override
            public Provider provider() {
                return null;
            }

            @Override
            public Throwable loadingError() {
                return new UnsatisfiedLinkError("no amazonCorrettoCryptoProvider in java.library.path");
            }
        };

        assertThat(NativeCrypto.install("on", unloadable)).isEqualTo(NativeCrypto.Outcome.UNAVAILABLE);

        assertThat(providerNames()).isEqualTo(before);
    }

    @Test
    void aSettingThatIsNeitherOnNorOffIsRefusedByName() {
        assertThatThrownBy(() -> NativeCrypto.install("maybe"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NativeCrypto.ENV).hasMessageContaining("maybe");
    }

    /**
     * A store written with ACCP installed reads back byte for byte with the JDK's providers alone, with the same ETag:
     * switching the provider on or off never changes what is stored (AES-GCM chunks, HMAC chunk ids and keys).
     */
    @Test
    void anObjectStoredWithAccpReadsBackWithTheJdkProvidersAndTheSameEtag(@TempDir Path dir) throws Exception {
        byte[] body = new byte[2 << 20];
        new Random(23).nextBytes(body);
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5", "SUN").digest(body));

        NativeCrypto.install("on");
        try (Coffer coffer = Coffer.builder().directory(dir).build()) {
            coffer.createBucket("accp-bucket", "t");
            ObjectInfo put = coffer.putObject(PutObjectRequest.of("accp-bucket", "k", body.length),
                    new ByteArrayInputStream(body));
            assertThat(put.etag()).isEqualTo(md5);
        }
        Security.removeProvider(ACCP);

        try (Coffer coffer = Coffer.builder().directory(dir).build();
                ObjectContent got = coffer.getObject("accp-bucket", "k")) {
            assertThat(got.stream().readAllBytes()).isEqualTo(body);
            assertThat(got.info().etag()).isEqualTo(md5);
        }
    }
}
