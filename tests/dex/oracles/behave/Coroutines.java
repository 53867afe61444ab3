import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlin.jvm.functions.Function2;
import kotlin.jvm.functions.Function3;
import kotlinx.coroutines.AwaitKt;
import kotlinx.coroutines.BuildersKt;
import kotlinx.coroutines.CoroutineScope;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.YieldKt;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowCollector;
import kotlinx.coroutines.flow.FlowKt;

/**
 * kotlinx.coroutines from the server APK (classes.dex), driven from Java: runBlocking
 * with three async coroutines, each a flow pipeline whose onEach step suspends (yield),
 * so that the event loop interleaves them; buffer (a channel and a producer coroutine),
 * produceIn/consumeAsFlow (an explicit channel), fold, catch; and an exception thrown
 * after several suspensions, which travels through the coroutine machinery to awaitAll
 * and runBlocking. Java cannot write suspend code, so every suspend lambda here ends in
 * a tail call that passes its continuation on, as Kotlin compiles tail calls.
 * runBlocking's single-threaded event loop makes the interleaving deterministic.
 */
@SuppressWarnings({ "rawtypes", "unchecked" })
public final class Coroutines {
	static final List<String> log = Collections.synchronizedList(new ArrayList<>());

	/** A pipeline: numbers from..to, logged and suspended at each, squared, filtered. */
	static Flow pipeline(String name, int from, int to, int failAt) {
		List<Integer> in = new ArrayList<>();
		for (int i = from; i <= to; i++)
			in.add(i);
		Flow f = FlowKt.asFlow(in);
		f = FlowKt.onEach(f, (Function2) (x, c) -> {
			log.add(name + ":" + x);
			return YieldKt.yield((Continuation) c);
		});
		f = FlowKt.map(f, (Function2) (x, c) -> {
			if ((Integer) x == failAt)
				throw new IllegalArgumentException(name + " refuses " + x);
			return (Integer) x * (Integer) x;
		});
		f = FlowKt.buffer(f, 2, kotlinx.coroutines.channels.BufferOverflow.SUSPEND);
		return FlowKt.filter(f, (Function2) (x, c) -> (Integer) x % 3 != 1);
	}

	static Object run(int failAt) {
		return BuildersKt.runBlocking(EmptyCoroutineContext.INSTANCE, (Function2) (scope, cont) -> {
			List deferreds = new ArrayList();
			String[] names = { "a", "b", "c" };
			for (int k = 0; k < 3; k++) {
				Flow p = pipeline(names[k], k * 10, k * 10 + 6, k == 1 ? failAt : -1);
				Function2 body = k == 2
						? (Function2) (s, c) -> FlowKt.fold(FlowKt.consumeAsFlow(FlowKt.produceIn(p, (CoroutineScope) s)), 0,
								(Function3) (acc, x, c2) -> (Integer) acc + (Integer) x, (Continuation) c)
						: (Function2) (s, c) -> FlowKt.toList(p, new ArrayList(), (Continuation) c);
				deferreds.add(BuildersKt.async((CoroutineScope) scope, EmptyCoroutineContext.INSTANCE,
						CoroutineStart.DEFAULT, body));
			}
			return AwaitKt.awaitAll(deferreds, (Continuation) cont);
		});
	}

	public static void main(String[] args) throws Exception {
		System.out.println("results " + run(-1));
		System.out.println("interleaving " + log);
		log.clear();
		try {
			System.out.println("results " + run(13));
		} catch (IllegalArgumentException e) {
			System.out.println("failed: " + e.getMessage());
		}
		System.out.println("before the failure " + log);
		log.clear();
		Function3 handler = (collector, t, c) -> {
			log.add("caught " + ((Throwable) t).getMessage());
			return ((FlowCollector) collector).emit(-1, (Continuation) c);
		};
		// `catch` is a Java keyword: call FlowKt.catch by reflection.
		Flow recovered = (Flow) FlowKt.class.getMethod("catch", Flow.class, Function3.class).invoke(null,
				pipeline("d", 1, 5, 4), handler);
		Object l = BuildersKt.runBlocking(EmptyCoroutineContext.INSTANCE,
				(Function2) (scope, cont) -> FlowKt.toList(recovered, new ArrayList(), (Continuation) cont));
		System.out.println("recovered " + l + " " + log);
	}
}
