#!/usr/bin/env python3
"""Groups an async-profiler collapsed-stack file of the gateway into cost centres, in ms of CPU per unit of work.

Usage: benchmarks/profile-categories.py PROFILE.collapsed UNITS [INTERVAL_MS]
UNITS: MB served or stored (large GET/PUT), or operations (4 KiB PUT+GET); INTERVAL_MS: the sampling interval (1).
Each stack counts for the first rule whose pattern occurs in it (so a digest inside the backend client's upload is
"md5"/"sha256", not "backend-http"); the rest are listed by their leaf frame.
"""
import collections
import sys

RULES = [  # (category, pattern): first match wins
    ("jit", "CompilerThre"), ("jit", "C2Compiler"), ("jit", "Compile::"),
    ("gc", "GC Thread"), ("gc", "G1"), ("gc", "GC_"),
    ("md5", "md5_implCompress"), ("md5", "MD5"),
    ("sha256", "sha256_implCompress"), ("sha256", "SHA2"), ("sha256", "DigestBase"),
    ("crc", "CRC32"), ("crc", "Crc64"), ("crc", "updateBytesCRC32"),
    ("aes-gcm", "CounterMode"), ("aes-gcm", "GHASH"), ("aes-gcm", "ghash_"), ("aes-gcm", "AESCrypt"),
    ("aes-gcm", "aescrypt"), ("aes-gcm", "GaloisCounterMode"), ("aes-gcm", "com/sun/crypto"),
    ("zstd", "zstd"), ("zstd", "Zstd"),
    ("fastcdc", "FastCdcChunker"),
    ("key-oprf", "bouncycastle"), ("key-oprf", "Oprf"), ("key-oprf", "KeySource"),
    ("metadata-sqlite", "sqlite"), ("metadata-jdbc", "io/coffer/sdk/meta/jdbc"),
    ("buffer-zeroing", "PackWriter.<init>"), ("buffer-zeroing", "ChunkReader.makeRoom"),
    ("buffer-zeroing", "RunBuffers.take"),
    ("backend-http", "S3BlobStore"), ("backend-http", "DirectoryBlobStore"), ("backend-http", "apache/http"),
    ("backend-http", "awssdk"),
    ("copy-into-bytebuf", "AbstractByteBufAllocator"), ("copy-into-bytebuf", "writeBytes"),
    ("stream-read", "ObjectReadStream.read"),
    ("request-body", "BodyPipe"), ("request-body", "RequestBodyStack"), ("request-body", "AwsChunked"),
    ("netty-write-syscall", "FileDispatcherImpl.write0"), ("netty-write-syscall", "IOUtil.write"),
    ("netty-read-syscall", "SocketDispatcher.read"), ("netty-read-syscall", "IOUtil.read"),
    ("netty-flush-other", "flush"), ("netty-write-other", "invokeWrite"), ("netty-write-other", "WriteTask"),
    ("netty-http-codec", "HttpObjectDecoder"), ("netty-http-codec", "HttpObjectEncoder"),
    ("epoll", "epoll"),
    ("futex/park", "park"), ("futex/park", "futex"), ("futex/park", "Object.wait"),
]


def main():
    path, units = sys.argv[1], float(sys.argv[2])
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    cat = collections.Counter()
    total = 0
    for line in open(path):
        stack, n = line.rstrip().rsplit(" ", 1)
        n = int(n)
        total += n
        for name, pattern in RULES:
            if pattern in stack:
                cat[name] += n
                break
        else:
            cat["other:" + stack.split(";")[-1].split("(")[0][-60:]] += n
    print(f"total samples {total}, {total * interval / units:.3f} ms of CPU per unit")
    for name, n in cat.most_common(40):
        print(f"{n:6d} {n * interval / units:.3f} ms/unit {100 * n / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
