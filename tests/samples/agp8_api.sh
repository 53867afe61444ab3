#!/usr/bin/env bash
# samples/agp8/build.gradle.kts against the Android Gradle Plugin's published API: each
# AGP class it imports and each AGP member it calls exist, with the shape it uses, in
# com.android.tools.build:gradle-api (tests/lib/maven_fetch.py: pinned by sha256 in
# tests/lib/maven.lock, cached in the download cache); and
# Gradle 8's rules hold (ExecOperations injected, no project.exec, no project.buildDir,
# no hard-coded android-NN, an import for each type it names). Issue 29, item 3.
#
# usage: tests/samples/agp8_api.sh SOURCE_ROOT WORK_DIR
set -euo pipefail
src=$1
work=$2
. "$src/tests/lib/need.sh"
need_cmd javap default-jdk-headless
need_cmd python3 python3
kts=$src/samples/agp8/build.gradle.kts
version=8.4.2
# pinned in tests/lib/maven.lock, cached in the download cache (tests/lib/maven_fetch.py)
jar=$(python3 "$src/tests/lib/maven_fetch.py" com.android.tools.build:gradle-api:$version) ||
	{ echo "cannot fetch com.android.tools.build:gradle-api:$version (see above)"; exit 1; }
mkdir -p "$work"
fail=0
ok() { echo "ok - $1"; }
bad() { echo "not ok - $1"; fail=1; }
# one javap run over every class the checks read (a JVM start each would take ~1 s);
# api CLASS prints that class's part of it
p=com.android.build.api
classes="$(sed -n 's/^import \(com\.android\.[A-Za-z0-9_.]*\)$/\1/p' "$kts") $p.variant.ApplicationAndroidComponentsExtension
	$p.variant.AndroidComponentsExtension $p.variant.AndroidComponents $p.dsl.SdkComponents $p.variant.Component
	$p.artifact.Artifacts $p.variant.ScopedArtifacts\$Scope $p.variant.ScopedArtifacts $p.variant.ScopedArtifactsOperation
	$p.artifact.ScopedArtifact\$CLASSES"
# shellcheck disable=SC2086
javap -cp "$jar" $classes >"$work/javap.txt" 2>&1 || true
api() {
	awk -v c="$1" 'function decl(k) { return index($0, k " " c " ") || index($0, k " " c "<") }
		index($0, "public ") == 1 && (decl("class") || decl("interface")) { on = 1 }
		on { print } on && /^}/ { exit }' "$work/javap.txt"
}

# every AGP class imported exists
for cls in $(sed -n 's/^import \(com\.android\.[A-Za-z0-9_.]*\)$/\1/p' "$kts"); do
	# api's output read whole first: grep -q ends a pipe at its match, and under pipefail
	# the writer's SIGPIPE would fail the check
	decl=$(api "$cls")
	if grep -q "^public .* $cls\b" <<<"$decl"; then ok "import $cls: in gradle-api $version"
	else bad "import $cls: not in gradle-api $version"; fi
done

# used PATTERN CLASS MEMBER: the sample uses PATTERN (so the row is not stale), and
# CLASS (javap) declares MEMBER (a fixed string of its javap line)
used() {
	if ! grep -qE -- "$1" "$kts"; then bad "the sample no longer uses /$1/: update this test"; return; fi
	local decl
	decl=$(api "$2")
	if grep -qF -- "$3" <<<"$decl"; then ok "$1: $2 has $3"
	else bad "$1: $2 has no $3 in gradle-api $version"; fi
}
used '^androidComponents \{' "$p.variant.ApplicationAndroidComponentsExtension" \
	"interface $p.variant.ApplicationAndroidComponentsExtension extends $p.variant.AndroidComponentsExtension<"
used 'onVariants \{ variant ->' "$p.variant.AndroidComponentsExtension" \
	"void onVariants($p.variant.VariantSelector, kotlin.jvm.functions.Function1<? super VariantT, kotlin.Unit>)"
used 'androidComponents\.sdkComponents\.bootClasspath' "$p.variant.AndroidComponents" \
	"$p.dsl.SdkComponents getSdkComponents()"
used 'sdkComponents\.bootClasspath' "$p.dsl.SdkComponents" \
	"org.gradle.api.provider.Provider<java.util.List<org.gradle.api.file.RegularFile>> getBootClasspath()"
used 'variant\.artifacts\.' "$p.variant.Component" "$p.artifact.Artifacts getArtifacts()"
used '\.forScope\(ScopedArtifacts\.Scope\.PROJECT\)' "$p.artifact.Artifacts" \
	"$p.variant.ScopedArtifacts forScope($p.variant.ScopedArtifacts\$Scope)"
used 'ScopedArtifacts\.Scope\.PROJECT' "$p.variant.ScopedArtifacts\$Scope" \
	"public static final $p.variant.ScopedArtifacts\$Scope PROJECT;"
used '\.use\(instrument\)' "$p.variant.ScopedArtifacts" \
	"<T extends org.gradle.api.Task> $p.variant.ScopedArtifactsOperation<T> use(org.gradle.api.tasks.TaskProvider<T>)"
# toTransform(artifact, jars: ListProperty<RegularFile>, dirs: ListProperty<Directory>, out: RegularFileProperty)
used '\.toTransform\($' "$p.variant.ScopedArtifactsOperation" \
	"void toTransform($p.artifact.ScopedArtifact, kotlin.jvm.functions.Function1<? super T, ? extends org.gradle.api.provider.ListProperty<org.gradle.api.file.RegularFile>>, kotlin.jvm.functions.Function1<? super T, ? extends org.gradle.api.provider.ListProperty<org.gradle.api.file.Directory>>, kotlin.jvm.functions.Function1<? super T, ? extends org.gradle.api.file.RegularFileProperty>)"
used 'ScopedArtifact\.CLASSES,' "$p.artifact.ScopedArtifact\$CLASSES" \
	"public final class $p.artifact.ScopedArtifact\$CLASSES extends $p.artifact.ScopedArtifact"
# the task's properties have the types toTransform takes
for prop in 'allJars: ListProperty<RegularFile>' 'allDirectories: ListProperty<Directory>' 'output: RegularFileProperty'; do
	if grep -qF "abstract val $prop" "$kts"; then ok "the task declares $prop"; else bad "the task lacks $prop"; fi
done

# Gradle 8's rules
rule() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
rule "ExecOperations injected" "grep -q '@Inject constructor(private val execOps: ExecOperations)' '$kts'"
rule "the command runs through it" "grep -q 'execOps.exec {' '$kts'"
rule "no project.exec" "! grep -v '^//' '$kts' | grep -q 'project\.exec\|project\.buildDir\|\bbuildDir\b'"
rule "layout.buildDirectory for outputs" "grep -q 'layout.buildDirectory.dir(' '$kts'"
rule "no hard-coded android-NN" "! grep -q 'android-[0-9]' '$kts'"
rule "the task writes its output jar (--out output)" "grep -q 'listOf(\"--out\", output.get().asFile.path)' '$kts'"
rule "cacheable" "grep -q '^@CacheableTask' '$kts'"
# each simple type named in an annotation or a type position is imported (or Kotlin's)
for t in $(grep -v '^//' "$kts" | grep -oE '@(get:)?[A-Z][A-Za-z]+|: [A-Z][A-Za-z]+|<[A-Z][A-Za-z]+>|\b(ScopedArtifacts?|PathSensitivity)\.' |
	sed -E 's/^@(get:)?//; s/^: //; s/[<>.]//g' | sort -u); do
	case $t in String|Unit|List) continue ;; esac
	grep -qE "^(abstract )?class $t\b" "$kts" && continue # defined here
	if grep -qE "^import [a-z.]+\.$t$" "$kts"; then ok "$t is imported"; else bad "$t is used without an import"; fi
done
[ "$fail" = 0 ]
