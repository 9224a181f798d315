#!/usr/bin/env python3
"""Groups an async-profiler collapsed-stack file of the gateway into cost centres, in ms of CPU per unit of work.

Usage: benchmarks/profile-categories.py PROFILE.collapsed UNITS [INTERVAL_MS] [--leaves N] [--threads]
UNITS: MB served or stored (large GET/PUT), or operations (4 KiB PUT+GET); INTERVAL_MS: the sampling interval (1).
--leaves N also lists the N costliest leaf frames across all stacks, kernel ones marked [k] (what the CPU itself
does: a memory copy, a cipher, a page clear), and the part of the samples whose stack enters the kernel; --threads
groups the samples by thread name, digits dropped (a profile taken with async-profiler's `threads` option).
Each stack counts for the first rule whose pattern occurs in it (so a digest inside the backend client's upload is
"md5"/"sha256", not "backend-http"); the rest are listed by their leaf frame.
"""
import collections
import re
import sys

RULES = [  # (category, pattern): first match wins
    ("jit", "CompilerThre"), ("jit", "C2Compiler"), ("jit", "Compile::"),
    ("gc", "GC Thread"), ("gc", "G1"), ("gc", "GC_"),
    ("md5", "md5_implCompress"), ("md5", "MD5"),
    ("sha256", "sha256_implCompress"), ("sha256", "SHA2"), ("sha256", "DigestBase"),
    ("crc", "CRC32"), ("crc", "Crc64"), ("crc", "updateBytesCRC32"),
    ("aes-gcm", "CounterMode"), ("aes-gcm", "GHASH"), ("aes-gcm", "ghash_"), ("aes-gcm", "AESCrypt"),
    ("aes-gcm", "aescrypt"), ("aes-gcm", "GaloisCounterMode"), ("aes-gcm", "com/sun/crypto"),
    ("aes-gcm", "AesGcmSpi"), ("aes-gcm", "libamazonCorrettoCryptoProvider"),  # ACCP's (the gateway's provider)
    ("zstd", "zstd"), ("zstd", "Zstd"),
    ("fastcdc", "FastCdcChunker"),
    ("key-oprf", "bouncycastle"), ("key-oprf", "Oprf"), ("key-oprf", "KeySource"),
    ("metadata-sqlite", "sqlite"), ("metadata-jdbc", "io/coffer/sdk/meta/jdbc"),
    ("buffer-zeroing", "PackWriter.<init>"), ("buffer-zeroing", "ChunkReader.makeRoom"),
    ("buffer-zeroing", "RunBuffers.take"),
    ("backend-socket-read", "NioSocketImpl.implRead"),  # the backend's answer: kernel copy, JDK's temp-buffer copy
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
    args = sys.argv[1:]
    leaves_shown = 0
    if "--leaves" in args:
        i = args.index("--leaves")
        leaves_shown = int(args[i + 1])
        del args[i:i + 2]
    by_thread = "--threads" in args
    if by_thread:
        args.remove("--threads")
    path, units = args[0], float(args[1])
    interval = float(args[2]) if len(args) > 2 else 1.0
    cat = collections.Counter()
    leaves = collections.Counter()
    threads = collections.Counter()
    in_kernel = 0
    total = 0
    for line in open(path):
        stack, n = line.rstrip().rsplit(" ", 1)
        n = int(n)
        total += n
        frames = stack.split(";")
        threads[re.sub(r"\d+", "N", frames[0].split(" tid=")[0].strip("[]"))] += n
        leaf = frames[-1].split("(")[0].strip()
        if leaf.endswith(".so"):  # a native library without a symbol: its name, not where it was unpacked
            leaf = leaf.rsplit("/", 1)[-1]
        leaves[leaf[-70:]] += n
        if any(f.endswith("_[k]") for f in frames):
            in_kernel += n
        for name, pattern in RULES:
            if pattern in stack:
                cat[name] += n
                break
        else:
            cat["other:" + leaf[-60:]] += n
    print(f"total samples {total}, {total * interval / units:.3f} ms of CPU per unit")
    for name, n in cat.most_common(40):
        print(f"{n:6d} {n * interval / units:.3f} ms/unit {100 * n / total:5.1f} %  {name}")
    if by_thread:
        print("by thread:")
        for name, n in threads.most_common(12):
            print(f"{n:6d} {n * interval / units:.3f} ms/unit {100 * n / total:5.1f} %  {name}")
    if leaves_shown:
        print(f"stacks in the kernel: {in_kernel * interval / units:.3f} ms/unit {100 * in_kernel / total:5.1f} %")
        print("costliest leaf frames:")
        for name, n in leaves.most_common(leaves_shown):
            print(f"{n:6d} {n * interval / units:.3f} ms/unit {100 * n / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
