/*@expect threads
  Events are recorded per thread: two workers run traced code concurrently-safe (joined one
  after the other), a third dies of an uncaught exception thrown through traced frames of its
  run() (the JVM prints it on stderr; its frames still leave by o()), and a Thread subclass's
  run() is traced. Each thread's sequence is balanced on its own.

thread s:Threads
i Threads.run()V
o Threads.run()V
thread s:Threads/w1
i Threads.lambda$run$0()V
  i Threads.work(Ljava/lang/String;I)I
    i Threads.work(Ljava/lang/String;I)I
    o Threads.work(Ljava/lang/String;I)I
  o Threads.work(Ljava/lang/String;I)I
o Threads.lambda$run$0()V
thread s:Threads/w2
i Threads.lambda$run$1()V
  i Threads.work(Ljava/lang/String;I)I
  o Threads.work(Ljava/lang/String;I)I
o Threads.lambda$run$1()V
thread s:Threads/w3
i Threads.lambda$run$2()V
  i Threads.boom(I)V
    i Threads.boom(I)V
    o Threads.boom(I)V
  o Threads.boom(I)V
o Threads.lambda$run$2()V
thread s:Threads/w4
i Threads$Worker.run()V
  i Threads.work(Ljava/lang/String;I)I
  o Threads.work(Ljava/lang/String;I)I
o Threads$Worker.run()V
*/
public class Threads {
    static int work(String who, int n) {
        if (n > 0) {
            return work(who, n - 1) + 1;
        }
        Out.p("work in " + who);
        return 0;
    }

    static void boom(int n) {
        if (n == 0) {
            throw new IllegalStateException("uncaught in a thread");
        }
        boom(n - 1);
    }

    static final class Worker extends Thread {
        Worker(String name) {
            super(name);
        }

        @Override
        public void run() {
            Out.p("Worker " + getName() + " " + work(getName(), 0));
        }
    }

    public static void run() throws InterruptedException {
        Thread w1 = new Thread(() -> work("w1", 1), "s:Threads/w1");
        Thread w2 = new Thread(() -> Out.p("w2 got " + work("w2", 0)), "s:Threads/w2");
        Thread w3 = new Thread(() -> boom(1), "s:Threads/w3");
        Thread w4 = new Worker("s:Threads/w4");
        w1.start();
        w1.join();
        w2.start();
        w2.join();
        w3.start();
        w3.join();
        w4.start();
        w4.join();
        Out.p("all joined");
    }
}
