package io.coffer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sdk's boundary, in place of a module-info (which needs the key-server artifact it requires to be a named module
 * first): the public surface of the packages an embedder uses names no type of the sdk's other packages, so those stay
 * free to change. The list is documented in {@code io.coffer.sdk}'s package-info.
 */
class ExportedPackagesTest {

    /** What embedders use: the API, and the packages of what the builder takes (the SPIs and their implementations). */
    static final Set<String> EXPORTED = Set.of(
            "io.coffer.sdk",
            "io.coffer.sdk.blob",
            "io.coffer.sdk.checksum",
            "io.coffer.sdk.chunk",
            "io.coffer.sdk.crypto",
            "io.coffer.sdk.key",
            "io.coffer.sdk.layer",
            "io.coffer.sdk.meta",
            "io.coffer.sdk.meta.jdbc");

    private static final String SDK = "io.coffer.sdk";

    @Test
    void exportedPackagesNameNoTypeOfAnInternalPackage() throws Exception {
        List<Class<?>> classes = publicClasses();
        assertThat(classes).extracting(Class::getPackageName).containsAll(EXPORTED);

        Set<String> offenders = new TreeSet<>();
        for (Class<?> c : classes) {
            check(c.getName() + " extends", c.getGenericSuperclass(), offenders);
            for (Type t : c.getGenericInterfaces()) {
                check(c.getName() + " implements", t, offenders);
            }
            for (Field f : c.getDeclaredFields()) {
                if (visible(f)) {
                    check(c.getName() + "." + f.getName(), f.getGenericType(), offenders);
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                checkExecutable(c.getName() + ".<init>", k, offenders);
            }
            for (Method m : c.getDeclaredMethods()) {
                if (!m.isBridge()) {
                    checkExecutable(c.getName() + "." + m.getName(), m, offenders);
                    if (visible(m)) {
                        check(c.getName() + "." + m.getName() + " returns", m.getGenericReturnType(), offenders);
                    }
                }
            }
        }
        assertThat(offenders).as("public signatures of exported packages naming internal types").isEmpty();
    }

    private static void checkExecutable(String where, Executable e, Set<String> offenders) {
        if (!visible(e)) {
            return;
        }
        for (Type t : e.getGenericParameterTypes()) {
            check(where + " parameter", t, offenders);
        }
        for (Type t : e.getGenericExceptionTypes()) {
            check(where + " throws", t, offenders);
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            check(where + " type parameter", v, offenders);
        }
    }

    private static boolean visible(Member m) {
        int mod = m.getModifiers();
        return !m.isSynthetic() && (Modifier.isPublic(mod) || Modifier.isProtected(mod));
    }

    private static void check(String where, Type type, Set<String> offenders) {
        for (Class<?> named : namedClasses(type, new HashSet<>())) {
            String pkg = named.getPackageName();
            if ((pkg.equals(SDK) || pkg.startsWith(SDK + ".")) && !EXPORTED.contains(pkg)) {
                offenders.add(where + " names " + named.getName());
            }
        }
    }

    /** Every class a type mentions, including type arguments, bounds and array components. */
    private static List<Class<?>> namedClasses(Type type, Set<TypeVariable<?>> seen) {
        List<Class<?>> out = new ArrayList<>();
        if (type == null) {
            return out;
        }
        if (type instanceof Class<?> c) {
            out.add(c.isArray() ? c.componentType() : c);
            if (c.isArray()) {
                out.addAll(namedClasses(c.componentType(), seen));
            }
        } else if (type instanceof ParameterizedType p) {
            out.addAll(namedClasses(p.getRawType(), seen));
            out.addAll(namedClasses(p.getOwnerType(), seen));
            for (Type a : p.getActualTypeArguments()) {
                out.addAll(namedClasses(a, seen));
            }
        } else if (type instanceof WildcardType w) {
            for (Type b : w.getUpperBounds()) {
                out.addAll(namedClasses(b, seen));
            }
            for (Type b : w.getLowerBounds()) {
                out.addAll(namedClasses(b, seen));
            }
        } else if (type instanceof GenericArrayType g) {
            out.addAll(namedClasses(g.getGenericComponentType(), seen));
        } else if (type instanceof TypeVariable<?> v && seen.add(v)) {
            for (Type b : v.getBounds()) {
                out.addAll(namedClasses(b, seen));
            }
        }
        return out;
    }

    /** The public classes (nested ones only where every enclosing class is public too) of the exported packages. */
    private static List<Class<?>> publicClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Coffer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> out = new ArrayList<>();
        for (String pkg : EXPORTED) {
            Path dir = root.resolve(pkg.replace('.', '/'));
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.filter(f -> f.getFileName().toString().endsWith(".class")).sorted().toList();
            }
            for (Path f : files) {
                String simple = f.getFileName().toString().replace(".class", "");
                if (simple.equals("package-info")) {
                    continue;
                }
                Class<?> c = Class.forName(pkg + "." + simple, false, Coffer.class.getClassLoader());
                if (!c.isSynthetic() && !c.isAnonymousClass() && !c.isLocalClass() && exposed(c)) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static boolean exposed(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
