package io.coffer.benchmarks.keyserver;

import io.coffer.keyserver.oprf.RsaOprfPublicKey;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;

/** Fresh, uniformly random valid blinded elements for a key. */
final class ElementSource {
    private final LoadTarget t;
    private final SecureRandom random = new SecureRandom();
    private ECPoint walk;
    private ECPoint stride;
    private ECCurve curve;

    ElementSource(LoadTarget t) {
        this.t = t;
        if (t.name.equals("p256")) {
            X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
            curve = x9.getCurve();
            walk = x9.getG().multiply(new BigInteger(255, random).add(BigInteger.ONE)).normalize();
            stride = x9.getG().multiply(new BigInteger(255, random).add(BigInteger.ONE)).normalize();
        }
    }

    ECPoint[] points(int n) {
        ECPoint[] p = new ECPoint[n];
        for (int i = 0; i < n; i++) {
            walk = walk.add(stride);
            p[i] = walk;
        }
        curve.normalizeAll(p);
        walk = p[n - 1];
        return p;
    }

    List<byte[]> next(int n) {
        List<byte[]> out = new ArrayList<>(n);
        if (curve != null) {
            for (ECPoint p : points(n)) {
                out.add(p.getEncoded(true));
            }
            return out;
        }
        BigInteger mod = ((RsaOprfPublicKey) t.key.publicKey()).modulus();
        for (int i = 0; i < n; i++) {
            BigInteger x = new BigInteger(mod.bitLength() + 64, random).mod(mod);
            byte[] raw = x.toByteArray();
            byte[] el = new byte[t.elementLength];
            int copy = Math.min(raw.length, el.length);
            System.arraycopy(raw, raw.length - copy, el, el.length - copy, copy);
            out.add(el);
        }
        return out;
    }
}
