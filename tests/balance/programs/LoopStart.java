/*@expect loop_back_to_first_instruction
  Loops whose back edge jumps to the method's first instruction (offset 0 in javac's code):
  while(true), do-while, an instance method, and a retry loop whose try range starts at 0.
  i() must run once per call, not once per iteration.

thread s:LoopStart
i LoopStart.run()V
  i LoopStart.spin(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
    i LoopStart.done(I)I
    o LoopStart.done(I)I
  o LoopStart.spin(I)I
  i LoopStart.doWhile(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
  o LoopStart.doWhile(I)I
  i LoopStart.countDown()V
    i LoopStart.tick()V
    o LoopStart.tick()V
    i LoopStart.tick()V
    o LoopStart.tick()V
  o LoopStart.countDown()V
  i LoopStart.retry(I)I
    i LoopStart.attempt(I)I
    o LoopStart.attempt(I)I
    i LoopStart.attempt(I)I
    o LoopStart.attempt(I)I
    i LoopStart.attempt(I)I
    o LoopStart.attempt(I)I
  o LoopStart.retry(I)I
  i LoopStart.spinThrow(I)V
    i LoopStart.step(I)I
    o LoopStart.step(I)I
    i LoopStart.step(I)I
    o LoopStart.step(I)I
  o LoopStart.spinThrow(I)V
o LoopStart.run()V
*/
public class LoopStart {
    int count = 2;

    public static void run() {
        Out.p("spin(3) = " + spin(3));
        Out.p("doWhile(2) = " + doWhile(2));
        new LoopStart().countDown();
        Out.p("retry(3) = " + retry(3));
        try {
            spinThrow(2);
        } catch (IllegalStateException e) {
            Out.p("spinThrow threw " + e.getMessage());
        }
    }

    static int step(int n) {
        return Math.subtractExact(n, 1);
    }

    static int done(int n) {
        return Math.abs(n) + 100;
    }

    static int spin(int n) {
        while (true) {
            if (n <= 0) {
                return done(n);
            }
            n = step(n);
        }
    }

    static int doWhile(int n) {
        do {
            n = step(n);
        } while (n > 0);
        return n;
    }

    void tick() {
        Out.p("tick " + count);
    }

    void countDown() {
        for (;;) {
            if (count-- <= 0) {
                return;
            }
            tick();
        }
    }

    static int attempt(int n) {
        if (n > 1) {
            throw new IllegalStateException("attempt " + n);
        }
        return Math.negateExact(n);
    }

    static int retry(int n) {
        while (true) {
            try {
                return attempt(n);
            } catch (IllegalStateException e) {
                n--;
            }
        }
    }

    /** loops back to 0, then leaves by an exception thrown in the loop head */
    static void spinThrow(int n) {
        while (true) {
            if (n == 0) {
                throw new IllegalStateException("spun out");
            }
            n = step(n);
        }
    }
}
