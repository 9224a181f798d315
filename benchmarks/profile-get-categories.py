#!/usr/bin/env python3
"""Groups an async-profiler collapsed-stack file of the gateway into the read path's cost centres, in ms of CPU per MB served.

Usage: benchmarks/profile-get-categories.py PROFILE.collapsed MB_SERVED
Each stack counts for the first rule whose pattern occurs in it; the rest are listed by their leaf frame.
"""
import collections,sys
f=sys.argv[1]; mb=float(sys.argv[2])
cat=collections.Counter(); tot=0
rules=[
 ('sha256','sha256_implCompressMB'),('sha256','DigestBase'),
 ('aes','CounterMode'),('aes','AESCipher'),('aes','com/sun/crypto'),
 ('blob-read','DirectoryBlobStore'),('blob-read','S3BlobStore'),
 ('gc','GC Thread'),('gc','G1'),('gc','GC_'),
 ('jit','CompilerThre'),
 ('copy-into-bytebuf','AbstractByteBufAllocator'),('copy-into-bytebuf','writeBytes'),
 ('stream-read','ObjectReadStream.read'),
 ('netty-write-syscall','FileDispatcherImpl.write0'),('netty-write-syscall','IOUtil.write'),
 ('netty-flush-other','flush'),('netty-write-other','invokeWrite'),('netty-write-other','WriteTask'),
 ('epoll','epoll'),
 ('futex/park','park'),('futex/park','futex'),('futex/park','Object.wait'),
]
for line in open(f):
    st,n=line.rstrip().rsplit(' ',1); n=int(n); tot+=n
    for c,pat in rules:
        if pat in st: cat[c]+=n; break
    else:
        fr=st.split(';'); cat['other:'+fr[-1].split('(')[0][-60:]]+=n
print('total samples',tot,'ms/MB %.3f'%(tot/mb))
for k,v in cat.most_common(40): print('%6d %.3f ms/MB  %s'%(v,v/mb,k))
