#!/usr/bin/env python3
"""Builds the Coffer gateway container image as a `docker load`-able tarball, without a Docker daemon or a registry.

    docker/build-image.py --out gateway/target/coffer-image.tar [--tag coffer-gateway:latest]

Needs the application laid out by `mvn -B -DskipTests -pl gateway -am package` (gateway/target/coffer-gateway-*.jar
and gateway/target/lib/) and a JDK with jmods (for jlink) on JAVA_HOME or PATH. Then `docker load -i FILE` (or
`podman load`) gives the image; docker/Dockerfile is the equivalent for machines that do have a daemon.

Two layers, written byte for byte reproducibly (sorted entries, fixed times and owners):
  1. runtime: a jlink'd Java runtime (/opt/java, only the modules the gateway needs, found by jdeps, with the
     gateway's G1 options built in: a user's JDK_JAVA_OPTIONS come after them and win), the shared libraries that
     runtime links against (found by ldd, copied from the build machine), /etc/passwd and /etc/group with the
     unprivileged user coffer (10001), /tmp (1777), /var/lib/coffer, /var/lib/coffer-keyserver and
     /var/lib/coffer-por (0700, owned by coffer).
  2. application: /opt/coffer/coffer-gateway.jar and /opt/coffer/lib/*.jar.
No shell and no package manager are in the image. It runs as 10001:10001; its HEALTHCHECK is `coffer health`, which
asks the admin port's /health/ready.
"""
import argparse
import glob
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UID = 10001
MAIN = "io.coffer.gateway.cli.CofferCommand"
CLASSPATH = "/opt/coffer/coffer-gateway.jar:/opt/coffer/lib/*"
JAVA = "/opt/java/bin/java"
# G1's marking at a fixed 80 % of the heap, as ./coffer serve starts it (docs/OPERATIONS.md, "Memory"). jlink writes
# them into the runtime, whose VM reads them before its command line: the java launcher puts a user's
# JDK_JAVA_OPTIONS at the start of that command line, so those come later and win (in the Entrypoint they would not).
JVM_OPTIONS = ["-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=80"]
# Modules reached only by reflection or service loading, which jdeps cannot see: EC and PKCS#11-free TLS suites,
# DNS through JNDI, JMX, charsets, zip file systems.
EXTRA_MODULES = ["jdk.crypto.ec", "jdk.naming.dns", "jdk.management", "jdk.charsets", "jdk.zipfs",
                 "jdk.unsupported", "java.net.http"]
ENV = {
    "COFFER_DATA": "/var/lib/coffer",
    "COFFER_BIND": "0.0.0.0",
    "COFFER_PORT": "9000",
    "COFFER_ADMIN_PORT": "9001",
    "COFFER_LOG_FORMAT": "json",
    "JAVA_HOME": "/opt/java",
    "PATH": "/opt/java/bin",
}
SECOND = 1_000_000_000


def die(msg):
    print("build-image: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        die("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def find_jdk(explicit):
    candidates = [explicit] if explicit else []
    if os.environ.get("JAVA_HOME"):
        candidates.append(os.environ["JAVA_HOME"])
    java = shutil.which("java")
    if java:
        candidates.append(os.path.dirname(os.path.dirname(os.path.realpath(java))))
    candidates += sorted(glob.glob("/usr/lib/jvm/*"))
    for home in candidates:
        if home and os.path.isdir(os.path.join(home, "jmods")) and os.access(os.path.join(home, "bin", "jlink"),
                                                                             os.X_OK):
            return home
    die("no JDK with jmods found (looked at %s); set JAVA_HOME to one" % ", ".join(c for c in candidates if c))


def jdk_feature(home):
    release = open(os.path.join(home, "release")).read()
    m = re.search(r'JAVA_VERSION="(\d+)', release)
    return int(m.group(1)) if m else 17


def modules(home, app_jar, libs):
    # --module-path too: a modular library jar (progressbar) is analysed as a module, whose `requires` (jline) must
    # resolve among the libraries
    lib_dirs = sorted(set(os.path.dirname(lib) for lib in libs))
    out = run([os.path.join(home, "bin", "jdeps"), "--ignore-missing-deps", "--multi-release", "17", "-q",
               "--print-module-deps", "--module-path", os.pathsep.join(lib_dirs),
               "--class-path", os.pathsep.join(libs)] + [app_jar] + libs)
    found = set(m for m in out.strip().split(",") if m)
    return sorted(found | set(EXTRA_MODULES))


def jlink(home, mods, dest):
    compress = "zip-6" if jdk_feature(home) >= 21 else "2"
    run([os.path.join(home, "bin", "jlink"), "--add-modules", ",".join(mods), "--strip-debug", "--no-header-files",
         "--no-man-pages", "--compress=" + compress, "--add-options=" + " ".join(JVM_OPTIONS), "--output", dest])
    cacerts = os.path.join(dest, "lib", "security", "cacerts")
    source = os.path.realpath(os.path.join(home, "lib", "security", "cacerts"))
    # a distribution JDK may link its trust store to one outside the JDK; the image needs the file itself
    if os.path.isfile(source) and (not os.path.isfile(cacerts) or os.path.getsize(cacerts) < 1024):
        if os.path.islink(cacerts):
            os.unlink(cacerts)
        shutil.copyfile(source, cacerts)


def bundled_natives(jars, work):
    """Linux x86-64 native libraries that jars extract and load at run time (SQLite's, Netty's, and every one in a
    jar whose classifier is linux-x86_64, such as the native crypto provider's), unpacked for ldd."""
    out = os.path.join(work, "natives")
    found = []
    for jar in jars:
        platform_jar = linux_x86_64(os.path.basename(jar).lower())
        with zipfile.ZipFile(jar) as z:
            for name in z.namelist():
                low = name.lower()
                if low.endswith(".so") and (platform_jar or linux_x86_64(low)) and "musl" not in low:
                    target = os.path.join(out, str(len(found)), os.path.basename(name))
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with z.open(name) as src, open(target, "wb") as dst:
                        shutil.copyfileobj(src, dst)
                    found.append(target)
    return found


def linux_x86_64(name):
    return "linux" in name and ("x86_64" in name or "amd64" in name or "x86-64" in name)


def shared_libraries(runtime, natives):
    """Every library the runtime's executables and libraries and the jars' native libraries load, and the dynamic
    loader, by the paths ld uses."""
    needed = set()
    for f in glob.glob(os.path.join(runtime, "bin", "*")) + glob.glob(os.path.join(runtime, "lib", "**", "*.so"),
                                                                         recursive=True) + natives:
        r = subprocess.run(["ldd", f], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in r.stdout.splitlines():
            m = re.search(r"=>\s+(/\S+)", line) or re.match(r"\s*(/\S+)\s+\(", line)
            if m and not m.group(1).startswith(runtime) and not m.group(1).startswith(os.path.dirname(runtime)):
                needed.add(m.group(1))
    if not needed:
        die("ldd found no libraries for the runtime")
    return sorted(needed)


class Layer:
    """An uncompressed, reproducible tar layer."""

    def __init__(self):
        self.entries = {}

    def dir(self, path, mode=0o755, uid=0):
        self.entries[path.strip("/")] = ("dir", None, mode, uid)

    def file(self, path, data, mode=0o644, uid=0):
        self._parents(path)
        self.entries[path.strip("/")] = ("file", data, mode, uid)

    def copy(self, source, path, mode=None):
        st = os.stat(source)
        with open(source, "rb") as f:
            self.file(path, f.read(), mode if mode is not None else (st.st_mode & 0o755) | 0o444)

    def tree(self, source_dir, dest):
        for base, dirs, files in os.walk(source_dir):
            dirs.sort()
            rel = os.path.relpath(base, source_dir)
            target = dest if rel == "." else os.path.join(dest, rel)
            self.dir(target, 0o755)
            for name in sorted(files):
                src = os.path.join(base, name)
                self.copy(os.path.realpath(src), os.path.join(target, name))

    def _parents(self, path):
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            self.entries.setdefault(p, ("dir", None, 0o755, 0))

    def bytes(self):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path in sorted(self.entries):
                kind, data, mode, uid = self.entries[path]
                info = tarfile.TarInfo(path)
                info.mode, info.uid, info.gid, info.mtime = mode, uid, uid, 0
                info.uname = info.gname = ""
                if kind == "dir":
                    info.type = tarfile.DIRTYPE
                    tar.addfile(info)
                else:
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
        return buf.getvalue()


def runtime_layer(home, app_jar, libs, work):
    runtime = os.path.join(work, "java")
    jlink(home, modules(home, app_jar, libs), runtime)
    layer = Layer()
    layer.tree(runtime, "opt/java")
    for lib in shared_libraries(runtime, bundled_natives([app_jar] + libs, work)):
        # the loader finds libraries under the directory ldd reported, so keep that path (and the real bytes)
        layer.copy(os.path.realpath(lib), lib.lstrip("/"), 0o755)
    layer.file("etc/passwd", b"root:x:0:0:root:/root:/sbin/nologin\n"
                             b"coffer:x:%d:%d:coffer:/var/lib/coffer:/sbin/nologin\n" % (UID, UID))
    layer.file("etc/group", b"root:x:0:\ncoffer:x:%d:\n" % UID)
    layer.file("etc/nsswitch.conf", b"hosts: files dns\n")
    layer.dir("tmp", 0o1777)
    for mountpoint in ("proc", "sys", "dev"):
        layer.dir(mountpoint, 0o755)
    layer.dir("var", 0o755)
    layer.dir("var/lib", 0o755)
    layer.dir("var/lib/coffer", 0o700, UID)
    # compose's key-server volume: a new named volume takes the owner and mode of the image's directory
    layer.dir("var/lib/coffer-keyserver", 0o700, UID)
    # and the PoR server's (U, C, H and its session key)
    layer.dir("var/lib/coffer-por", 0o700, UID)
    return layer.bytes()


def app_layer(app_jar, libs):
    layer = Layer()
    layer.copy(app_jar, "opt/coffer/coffer-gateway.jar", 0o644)
    for lib in libs:
        layer.copy(lib, "opt/coffer/lib/" + os.path.basename(lib), 0o644)
    return layer.bytes()


def image_config(diff_ids, java_version):
    return {
        "architecture": "amd64",
        "os": "linux",
        "config": {
            "User": "%d:%d" % (UID, UID),
            "Env": ["%s=%s" % kv for kv in ENV.items()],
            # no JVM options here: they would follow a user's JDK_JAVA_OPTIONS and override them (JVM_OPTIONS)
            "Entrypoint": [JAVA, "-cp", CLASSPATH, MAIN],
            "Cmd": ["serve"],
            "WorkingDir": "/var/lib/coffer",
            "ExposedPorts": {"9000/tcp": {}, "9001/tcp": {}},
            "Volumes": {"/var/lib/coffer": {}},
            "Healthcheck": {
                "Test": ["CMD", JAVA, "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", CLASSPATH, MAIN, "health"],
                "Interval": 10 * SECOND,
                "Timeout": 5 * SECOND,
                "StartPeriod": 30 * SECOND,
                "Retries": 3,
            },
            "Labels": {"org.opencontainers.image.title": "coffer-gateway",
                       "org.opencontainers.image.description": "Coffer S3 gateway (Java %s runtime)" % java_version},
        },
        "rootfs": {"type": "layers", "diff_ids": diff_ids},
        "history": [{"created_by": "docker/build-image.py: jlink runtime, shared libraries, user coffer"},
                    {"created_by": "docker/build-image.py: gateway jar and libraries"}],
    }


def main():
    p = argparse.ArgumentParser(description="Build the Coffer gateway image tarball without a Docker daemon.")
    p.add_argument("--out", required=True, help="where to write the docker-archive tarball")
    p.add_argument("--tag", default="coffer-gateway:latest")
    p.add_argument("--java-home", help="JDK with jmods (default: JAVA_HOME, the java on PATH, /usr/lib/jvm/*)")
    p.add_argument("--gateway-target", default=os.path.join(ROOT, "gateway", "target"))
    a = p.parse_args()

    jars = [j for j in glob.glob(os.path.join(a.gateway_target, "coffer-gateway-*.jar"))
            if not re.search(r"-(sources|javadoc|tests)\.jar$", j)]
    libs = sorted(glob.glob(os.path.join(a.gateway_target, "lib", "*.jar")))
    if len(jars) != 1 or not libs:
        die("run `mvn -B -DskipTests -pl gateway -am package` first (found %d gateway jars, %d libraries in %s)"
            % (len(jars), len(libs), a.gateway_target))
    home = find_jdk(a.java_home)
    with tempfile.TemporaryDirectory(prefix="coffer-image-") as work:
        layers = [runtime_layer(home, jars[0], libs, work), app_layer(jars[0], libs)]
    diff_ids = ["sha256:" + hashlib.sha256(layer).hexdigest() for layer in layers]
    config = json.dumps(image_config(diff_ids, jdk_feature(home)), sort_keys=True, separators=(",", ":")).encode()
    config_name = hashlib.sha256(config).hexdigest() + ".json"
    layer_names = [d.split(":")[1] + "/layer.tar" for d in diff_ids]
    manifest = json.dumps([{"Config": config_name, "RepoTags": [a.tag], "Layers": layer_names}],
                          separators=(",", ":")).encode()
    out = Layer()
    out.file(config_name, config)
    for name, data in zip(layer_names, layers):
        out.file(name, data)
    out.file("manifest.json", manifest)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out.bytes())
    os.replace(tmp, a.out)
    print("build-image: wrote %s (%s, %d MiB, layers %s)" % (a.out, a.tag, os.path.getsize(a.out) >> 20,
                                                             ", ".join(d[7:19] for d in diff_ids)))


if __name__ == "__main__":
    main()
