// A small Kotlin 2.x program over the shapes Kotlin's compiler makes that javac does not
// (tests/dex/kotlin/README.md): coroutine state machines (suspend functions, suspend
// lambdas, flows, channels, cancellation, an exception thrown across suspensions),
// inline functions (reified, crossinline; their bodies copied into the callers), value
// classes (mangled names, constructor-impl/box-impl, boxing at generic use), interface
// default methods compiled as JVM defaults (-Xjvm-default=all, `super.f()` of one),
// `when` over a sealed hierarchy, and lambdas (invokedynamic under Kotlin 2's default,
// classes under -Xlambdas=class). Its output is deterministic: runBlocking's event loop
// orders the coroutines, and the one on Dispatchers.Default is awaited.
package tc.kt

import kotlinx.coroutines.*
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.*

@JvmInline
value class Meters(val v: Long) {
    operator fun plus(o: Meters) = Meters(v + o.v)
    fun describe(): String = "${v}m"
}

@JvmInline
value class Name(val s: String) {
    init { require(s.isNotEmpty()) { "empty name" } }
    val initial: Char get() = s[0]
}

sealed interface Shape {
    data class Circle(val r: Int) : Shape
    data class Rect(val w: Int, val h: Int) : Shape
    object Empty : Shape
    sealed class Poly(val sides: Int) : Shape {
        class Tri(val a: Int, val b: Int, val c: Int) : Poly(3)
        class Quad : Poly(4)
    }
}

fun area(s: Shape): Long = when (s) {
    is Shape.Circle -> 3L * s.r * s.r
    is Shape.Rect -> s.w.toLong() * s.h
    Shape.Empty -> 0L
    is Shape.Poly.Tri -> (s.a + s.b + s.c).toLong()
    is Shape.Poly.Quad -> s.sides.toLong()
}

interface Greeter {
    val name: String
    fun greet(): String = "hello, " + name + suffix()
    fun suffix(): String = "!"
    companion object { fun of(n: String): Greeter = object : Greeter { override val name = n } }
}

class Loud(override val name: String) : Greeter {
    override fun suffix(): String = "!!!" + super.suffix()
}

inline fun <T> measure(label: String, block: () -> T): T {
    val r = block()
    println("measured $label")
    return r
}

inline fun <reified T> Iterable<Any>.countOf(): Int = count { it is T }

inline fun repeatUntil(max: Int, crossinline stop: (Int) -> Boolean): Int {
    val r = Runnable { }
    r.run()
    var i = 0
    while (i < max && !stop(i)) i++
    return i
}

fun applyTwice(x: Int, f: (Int) -> Int): Int = f(f(x))

fun interface Scorer { fun score(s: String): Int }

fun scoreAll(words: List<String>, s: Scorer): Int = words.sumOf { s.score(it) }

fun total(ms: List<Meters>): Meters = ms.fold(Meters(0)) { a, b -> a + b }

suspend fun fib(n: Int): Long {
    if (n < 2) return n.toLong()
    yield()
    return fib(n - 1) + fib(n - 2)
}

suspend fun failing(after: Int): Int {
    repeat(after) { delay(1); yield() }
    throw IllegalStateException("failed after $after")
}

fun ticks(n: Int): Flow<Int> = flow { for (i in 1..n) { emit(i); yield() } }

fun main() {
    val shapes = listOf(Shape.Circle(2), Shape.Rect(3, 4), Shape.Empty,
        Shape.Poly.Tri(1, 2, 3), Shape.Poly.Quad())
    println("areas " + shapes.map(::area))
    println("circles " + shapes.countOf<Shape.Circle>() + " polys " + shapes.countOf<Shape.Poly>())

    val d = total(listOf(Meters(3), Meters(4), Meters(5)))
    println("total " + d.describe())
    val boxed: List<Any> = listOf(Meters(7), Name("ada"))
    println("boxed " + boxed)
    println("initial " + Name("grace").initial)
    try { Name("") } catch (e: IllegalArgumentException) { println("caught " + e.message) }

    println(Greeter.of("world").greet())
    println(Loud("kotlin").greet())

    val n = measure("repeat") { repeatUntil(100) { it * it > 50 } }
    println("repeatUntil $n")
    val k = n + 1
    println("applyTwice " + applyTwice(5) { it * k })
    println("scoreAll " + scoreAll(listOf("ab", "cde")) { it.length * k })
    println("lazy " + generateSequence(1) { it * 3 }.takeWhile { it < 1000 }.joinToString(","))

    runBlocking {
        val a = async { fib(15) }
        val b = async { fib(12) }
        println("fib " + a.await() + " " + b.await())
        val ch = Channel<Int>(2)
        launch { for (i in 1..5) ch.send(i * i); ch.close() }
        var sum = 0
        for (v in ch) sum += v
        println("channel sum $sum")
        println("flow " + ticks(6).map { it * 10 }.filter { it % 20 == 0 }.toList())
        val r = try { failing(3) } catch (e: IllegalStateException) { -1 }.also { println("caught failing: $it") }
        println("after " + r)
        val job = launch { try { delay(10_000) } finally { println("cancelled cleanup") } }
        yield()
        job.cancelAndJoin()
        println("withContext " + withContext(Dispatchers.Default) { fib(10) })
    }
    println("done")
}
