package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * The prime-order group P-256 as RFC 9497 uses it: elements serialized as 33-byte compressed SEC1
 * points, scalars as 32-byte big-endian integers modulo the group order.
 *
 * <p>The curve comes from Bouncy Castle's {@code CustomNamedCurves} "secp256r1": the same parameters as
 * {@code SECNamedCurves}, with the specialised (faster) field arithmetic.
 */
final class P256Group {
    static final P256Group INSTANCE = new P256Group();
    static final int ELEMENT_LENGTH = 33;
    static final int SCALAR_LENGTH = 32;

    final ECCurve curve;
    final ECPoint generator;
    final BigInteger order;
    private final HashToCurve h2c;
    private final FixedPointCombMultiplier baseMultiplier = new FixedPointCombMultiplier();

    private P256Group() {
        X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
        this.curve = x9.getCurve();
        this.generator = x9.getG();
        this.order = x9.getN();
        this.h2c = new HashToCurve(curve);
    }

    HashToCurve hashToCurve() {
        return h2c;
    }

    ECPoint multiplyGenerator(BigInteger k) {
        return baseMultiplier.multiply(generator, k).normalize();
    }

    byte[] serializeElement(ECPoint point) {
        if (point.isInfinity()) {
            throw new IllegalArgumentException("identity element cannot be serialized");
        }
        return point.normalize().getEncoded(true);
    }

    /** DeserializeElement: exactly 33 bytes, compressed, on the curve and not the identity. */
    ECPoint deserializeElement(byte[] encoded) throws OprfException {
        if (encoded.length != ELEMENT_LENGTH || (encoded[0] != 0x02 && encoded[0] != 0x03)) {
            throw new OprfException("invalid element encoding");
        }
        ECPoint point;
        try {
            point = curve.decodePoint(encoded);
        } catch (IllegalArgumentException e) {
            throw new OprfException("element not on the curve");
        }
        if (point.isInfinity() || !point.isValid()) {
            throw new OprfException("invalid element");
        }
        return point.normalize();
    }

    byte[] serializeScalar(BigInteger s) {
        return Octets.i2osp(s, SCALAR_LENGTH);
    }

    /** DeserializeScalar: exactly 32 bytes, value below the group order. */
    BigInteger deserializeScalar(byte[] encoded) throws OprfException {
        if (encoded.length != SCALAR_LENGTH) {
            throw new OprfException("invalid scalar encoding");
        }
        BigInteger s = Octets.os2ip(encoded);
        if (s.compareTo(order) >= 0) {
            throw new OprfException("scalar out of range");
        }
        return s;
    }

    BigInteger randomNonZeroScalar(SecureRandom random) {
        while (true) {
            BigInteger s = new BigInteger(order.bitLength(), random);
            if (s.signum() > 0 && s.compareTo(order) < 0) {
                return s;
            }
        }
    }

    ECPoint hashToGroup(byte[] input, byte[] dst) {
        return h2c.hashToCurve(input, dst);
    }

    BigInteger hashToScalar(byte[] input, byte[] dst) {
        return HashToCurve.hashToField(input, dst, 1, order)[0];
    }
}
