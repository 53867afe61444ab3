/* A stand-in for Android's libandroid_runtime.so / libutils.so, for the
 * thread-priority tracer's tests (test_tracer_priority.c): what
 * Process.setThreadPriority (androidSetThreadPriority: setpriority on a
 * thread id), Process.setThreadScheduler (sched_setscheduler) and the
 * platform's timer-slack setting (prctl PR_SET_TIMERSLACK) come down to,
 * called through this library's PLT. */
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>

int fake_set_thread_priority(int tid, int nice);
int fake_set_thread_scheduler(int tid, int policy, int prio);
int fake_set_timer_slack(unsigned long ns);

int fake_set_thread_priority(int tid, int nice)
{
	return setpriority(PRIO_PROCESS, (id_t)tid, nice);
}

int fake_set_thread_scheduler(int tid, int policy, int prio)
{
	struct sched_param p = { .sched_priority = prio };
	return sched_setscheduler((pid_t)tid, policy, &p);
}

int fake_set_timer_slack(unsigned long ns)
{
	return prctl(PR_SET_TIMERSLACK, ns, 0, 0, 0);
}
