// tracecanary in an Android app module built with the Android Gradle Plugin 8: the
// app's build.gradle.kts (the module's, not the root project's). A task per variant
// takes every class of the project (the class directories of javac and kotlinc, and
// jars such as R.jar) through AGP's ScopedArtifacts API and gives AGP back one jar,
// which it dexes: tc-instrument joins its several --in into that one --out.
//
//   ./gradlew -Ptc=/usr/local/bin/tc-instrument assembleDebug
//
// The method mapping of each variant goes to build/outputs/tracecanary/VARIANT/; keep
// the release one as tracecanary/methodMapping.txt (committed) and the next builds keep
// its ids (--base-mapping; `tc-instrument diff` tells which changed).
//
// Gradle 8's rules: the command runs through the injected ExecOperations (project.exec
// in a task action is deprecated, and gone in Gradle 9), paths come from
// layout.buildDirectory (project.buildDir is deprecated), and android.jar is the one of
// the compile SDK the extension gives (androidComponents.sdkComponents.bootClasspath),
// not a hard-coded android-NN. The task is cacheable: its inputs are the classes, the
// jars, the tool itself (its version), the class path, the options, the block list and
// the base mapping; its outputs the jar and the mapping directory.
//
// The API names used here are checked against AGP's published gradle-api jar by
// tests/samples/agp8_api.sh (suite plain).

import com.android.build.api.artifact.ScopedArtifact
import com.android.build.api.variant.ScopedArtifacts
import javax.inject.Inject
import org.gradle.api.DefaultTask
import org.gradle.api.file.ConfigurableFileCollection
import org.gradle.api.file.Directory
import org.gradle.api.file.DirectoryProperty
import org.gradle.api.file.RegularFile
import org.gradle.api.file.RegularFileProperty
import org.gradle.api.provider.ListProperty
import org.gradle.api.tasks.CacheableTask
import org.gradle.api.tasks.Classpath
import org.gradle.api.tasks.Input
import org.gradle.api.tasks.InputFile
import org.gradle.api.tasks.InputFiles
import org.gradle.api.tasks.Optional
import org.gradle.api.tasks.OutputDirectory
import org.gradle.api.tasks.OutputFile
import org.gradle.api.tasks.PathSensitive
import org.gradle.api.tasks.PathSensitivity
import org.gradle.api.tasks.TaskAction
import org.gradle.kotlin.dsl.register
import org.gradle.process.ExecOperations

plugins {
    id("com.android.application")
}

android {
    namespace = "com.example.app"
    compileSdk = 34
    defaultConfig {
        applicationId = "com.example.app"
        minSdk = 21
    }
}

dependencies {
    // the runtime the instrumented calls go to (docs/runtime.md), in the app
    implementation(files("libs/tracecanary-runtime.jar"))
}

@CacheableTask
abstract class TraceCanaryInstrument @Inject constructor(private val execOps: ExecOperations) : DefaultTask() {
    // set by AGP (toTransform below): every jar and class directory of the scope
    @get:InputFiles
    @get:PathSensitive(PathSensitivity.RELATIVE)
    abstract val allJars: ListProperty<RegularFile>

    @get:InputFiles
    @get:PathSensitive(PathSensitivity.RELATIVE)
    abstract val allDirectories: ListProperty<Directory>

    // and the one jar AGP takes back
    @get:OutputFile
    abstract val output: RegularFileProperty

    // tc-instrument itself: its bytes are its version
    @get:InputFile
    @get:PathSensitive(PathSensitivity.NONE)
    abstract val tool: RegularFileProperty

    // read for the class hierarchy only: android.jar of the compile SDK, the runtime
    @get:Classpath
    abstract val bootClasspath: ListProperty<RegularFile>

    @get:Classpath
    abstract val runtimeClasspath: ConfigurableFileCollection

    @get:InputFile
    @get:Optional
    @get:PathSensitive(PathSensitivity.NONE)
    abstract val blocklist: RegularFileProperty

    @get:InputFile
    @get:Optional
    @get:PathSensitive(PathSensitivity.NONE)
    abstract val baseMapping: RegularFileProperty

    @get:Input
    abstract val options: ListProperty<String>

    @get:OutputDirectory
    abstract val mappingDir: DirectoryProperty

    @TaskAction
    fun instrument() {
        val cmd = mutableListOf<String>()
        cmd += options.get()
        cmd += listOf("--mapping-dir", mappingDir.get().asFile.path)
        (bootClasspath.get().map { it.asFile } + runtimeClasspath.files).forEach {
            cmd += listOf("--classpath", it.path)
        }
        if (blocklist.isPresent) cmd += listOf("--blocklist", blocklist.get().asFile.path)
        if (baseMapping.isPresent) cmd += listOf("--base-mapping", baseMapping.get().asFile.path)
        // many in, one jar out: the directories, then the jars, in AGP's order
        allDirectories.get().forEach { cmd += listOf("--in", it.asFile.path) }
        allJars.get().forEach { cmd += listOf("--in", it.asFile.path) }
        cmd += listOf("--out", output.get().asFile.path)
        execOps.exec {
            executable = tool.get().asFile.path
            args(cmd)
        }
    }
}

androidComponents {
    onVariants { variant ->
        val instrument = tasks.register<TraceCanaryInstrument>("${variant.name}TraceCanaryInstrument") {
            tool.set(layout.projectDirectory.file(providers.gradleProperty("tc").orElse("/usr/local/bin/tc-instrument")))
            bootClasspath.set(androidComponents.sdkComponents.bootClasspath)
            runtimeClasspath.from(layout.projectDirectory.file("libs/tracecanary-runtime.jar"))
            val blocks = layout.projectDirectory.file("tracecanary/blocklist.txt")
            if (blocks.asFile.exists()) blocklist.set(blocks)
            val base = layout.projectDirectory.file("tracecanary/methodMapping.txt")
            if (base.asFile.exists()) baseMapping.set(base)
            options.set(listOf("--quiet"))
            mappingDir.set(layout.buildDirectory.dir("outputs/tracecanary/${variant.name}"))
        }
        variant.artifacts.forScope(ScopedArtifacts.Scope.PROJECT)
            .use(instrument)
            .toTransform(
                ScopedArtifact.CLASSES,
                TraceCanaryInstrument::allJars,
                TraceCanaryInstrument::allDirectories,
                TraceCanaryInstrument::output
            )
    }
}
