package io.coffer.keyserver.oprf;

import java.math.BigInteger;
import java.security.MessageDigest;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECFieldElement;
import org.bouncycastle.math.ec.ECPoint;

/**
 * RFC 9380 hashing to P-256: {@code expand_message_xmd} with SHA-256, {@code hash_to_field}, the
 * simplified SWU map (Z = -10) and the suites P256_XMD:SHA-256_SSWU_RO_ ({@link #hashToCurve}) and
 * P256_XMD:SHA-256_SSWU_NU_ ({@link #encodeToCurve}). The cofactor of P-256 is 1, so clear_cofactor is
 * the identity.
 *
 * <p>Implementation notes: field arithmetic is Bouncy Castle's P-256 field; square roots use its
 * {@code sqrt()} which returns {@code null} for non-squares (the is_square test). The map is not written to
 * be constant time; its input is the client's own message, hashed, so only the client can time it.
 */
public final class HashToCurve {
    private static final int B_IN_BYTES = 32;
    private static final int S_IN_BYTES = 64;
    /** L = ceil((ceil(log2(p)) + k) / 8) with k = 128 for P-256. */
    static final int L = 48;

    private final ECCurve curve;
    private final BigInteger p;
    private final ECFieldElement a;
    private final ECFieldElement b;
    private final ECFieldElement z;
    private final ECFieldElement minusBOverA;
    private final ECFieldElement bOverZa;

    HashToCurve(ECCurve curve) {
        this.curve = curve;
        this.p = curve.getField().getCharacteristic();
        this.a = curve.getA();
        this.b = curve.getB();
        this.z = curve.fromBigInteger(p.subtract(BigInteger.TEN));
        this.minusBOverA = b.negate().divide(a);
        this.bOverZa = b.divide(z.multiply(a));
    }

    /** The P-256 instance. */
    public static HashToCurve p256() {
        return P256Group.INSTANCE.hashToCurve();
    }

    /** expand_message_xmd with SHA-256 (RFC 9380 section 5.3.1), including the oversize-DST rule. */
    public static byte[] expandMessageXmd(byte[] msg, byte[] dst, int lenInBytes) {
        if (dst.length > 255) {
            dst = Octets.sha256(Octets.ascii("H2C-OVERSIZE-DST-"), dst);
        }
        int ell = (lenInBytes + B_IN_BYTES - 1) / B_IN_BYTES;
        if (ell > 255 || lenInBytes > 65535 || lenInBytes <= 0) {
            throw new IllegalArgumentException("expand_message_xmd: bad length " + lenInBytes);
        }
        byte[] dstPrime = Octets.concat(dst, Octets.i2osp(dst.length, 1));
        MessageDigest md = Octets.sha256();
        md.update(new byte[S_IN_BYTES]);
        md.update(msg);
        md.update(Octets.i2osp(lenInBytes, 2));
        md.update((byte) 0);
        md.update(dstPrime);
        byte[] b0 = md.digest();
        byte[] out = new byte[lenInBytes];
        byte[] prev = new byte[B_IN_BYTES];
        for (int i = 1; i <= ell; i++) {
            byte[] mixed = new byte[B_IN_BYTES];
            for (int j = 0; j < B_IN_BYTES; j++) {
                mixed[j] = (byte) (b0[j] ^ (i == 1 ? 0 : prev[j]));
            }
            md.update(i == 1 ? b0 : mixed);
            md.update((byte) i);
            md.update(dstPrime);
            prev = md.digest();
            int off = (i - 1) * B_IN_BYTES;
            System.arraycopy(prev, 0, out, off, Math.min(B_IN_BYTES, lenInBytes - off));
        }
        return out;
    }

    /** hash_to_field with expand_message_xmd/SHA-256, m = 1, L = 48, reducing modulo {@code modulus}. */
    static BigInteger[] hashToField(byte[] msg, byte[] dst, int count, BigInteger modulus) {
        byte[] uniform = expandMessageXmd(msg, dst, count * L);
        BigInteger[] u = new BigInteger[count];
        for (int i = 0; i < count; i++) {
            u[i] = Octets.os2ip(uniform, i * L, L).mod(modulus);
        }
        return u;
    }

    /** hash_to_field into the P-256 base field. */
    public BigInteger[] hashToField(byte[] msg, byte[] dst, int count) {
        return hashToField(msg, dst, count, p);
    }

    /** Simplified SWU map for P-256 (RFC 9380 section 6.6.2), returning an affine point. */
    public ECPoint mapToCurve(BigInteger uValue) {
        ECFieldElement u = curve.fromBigInteger(uValue);
        ECFieldElement u2 = u.square();
        ECFieldElement zu2 = z.multiply(u2);
        ECFieldElement tv1 = zu2.square().add(zu2);
        ECFieldElement x1 = tv1.isZero() ? bOverZa : minusBOverA.multiply(tv1.invert().addOne());
        ECFieldElement gx1 = x1.square().add(a).multiply(x1).add(b);
        ECFieldElement x;
        ECFieldElement y = gx1.sqrt();
        if (y != null) {
            x = x1;
        } else {
            x = zu2.multiply(x1);
            ECFieldElement gx2 = x.square().add(a).multiply(x).add(b);
            y = gx2.sqrt();
            if (y == null) {
                throw new IllegalStateException("SSWU: neither gx1 nor gx2 is square");
            }
        }
        if (u.testBitZero() != y.testBitZero()) {
            y = y.negate();
        }
        return curve.createPoint(x.toBigInteger(), y.toBigInteger());
    }

    /** hash_to_curve, P256_XMD:SHA-256_SSWU_RO_. */
    public ECPoint hashToCurve(byte[] msg, byte[] dst) {
        BigInteger[] u = hashToField(msg, dst, 2);
        return mapToCurve(u[0]).add(mapToCurve(u[1])).normalize();
    }

    /** encode_to_curve, P256_XMD:SHA-256_SSWU_NU_. */
    public ECPoint encodeToCurve(byte[] msg, byte[] dst) {
        BigInteger[] u = hashToField(msg, dst, 1);
        return mapToCurve(u[0]).normalize();
    }
}
