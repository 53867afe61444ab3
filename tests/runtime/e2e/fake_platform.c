/* The HotSpot end-to-end test's stand-in for the platform libraries that
 * the PLT-hook tracers watch (E2e's "hooks" mode, FakePlatform.java): as
 * libandroid_runtime.so it sets a thread's nice value with setpriority, as
 * libinput.so it reads input messages from a channel with recvfrom and
 * sends the finished signal with sendto, all through its PLT. Loaded with
 * System.load; the runtime hooks it by name (libtc_e2efake.so). */
#define _GNU_SOURCE 1
#include <jni.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

JNIEXPORT jint JNICALL Java_FakePlatform_myTid(JNIEnv *env, jclass cls);
JNIEXPORT jint JNICALL Java_FakePlatform_getThreadPriority(JNIEnv *env, jclass cls, jint tid);
JNIEXPORT jint JNICALL Java_FakePlatform_setThreadPriority(JNIEnv *env, jclass cls, jint tid, jint nice);
JNIEXPORT jintArray JNICALL Java_FakePlatform_channel(JNIEnv *env, jclass cls);
JNIEXPORT jint JNICALL Java_FakePlatform_systemSend(JNIEnv *env, jclass cls, jint fd, jint size);
JNIEXPORT jint JNICALL Java_FakePlatform_consume(JNIEnv *env, jclass cls, jint fd);
JNIEXPORT jint JNICALL Java_FakePlatform_finish(JNIEnv *env, jclass cls, jint fd);

JNIEXPORT jint JNICALL Java_FakePlatform_myTid(JNIEnv *env, jclass cls)
{
	(void)env;
	(void)cls;
	return (jint)syscall(SYS_gettid);
}

JNIEXPORT jint JNICALL Java_FakePlatform_getThreadPriority(JNIEnv *env, jclass cls, jint tid)
{
	(void)env;
	(void)cls;
	return getpriority(PRIO_PROCESS, (id_t)tid);
}

/* androidSetThreadPriority: setpriority on a thread id (0: the caller) */
JNIEXPORT jint JNICALL Java_FakePlatform_setThreadPriority(JNIEnv *env, jclass cls, jint tid, jint nice)
{
	(void)env;
	(void)cls;
	return setpriority(PRIO_PROCESS, (id_t)tid, nice);
}

/* an input channel: [0] the system's end, [1] the app's */
JNIEXPORT jintArray JNICALL Java_FakePlatform_channel(JNIEnv *env, jclass cls)
{
	(void)cls;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
		return NULL;
	jintArray a = (*env)->NewIntArray(env, 2);
	if (a) {
		jint v[2] = { sv[0], sv[1] };
		(*env)->SetIntArrayRegion(env, a, 0, 2, v);
	}
	return a;
}

/* the system dispatching an event of size bytes (send: not a hooked call) */
JNIEXPORT jint JNICALL Java_FakePlatform_systemSend(JNIEnv *env, jclass cls, jint fd, jint size)
{
	(void)env;
	(void)cls;
	unsigned char ev[256] = { 1 };
	return (jint)send(fd, ev, (size_t)size < sizeof ev ? (size_t)size : sizeof ev, 0);
}

/* InputConsumer::consume: one message */
JNIEXPORT jint JNICALL Java_FakePlatform_consume(JNIEnv *env, jclass cls, jint fd)
{
	(void)env;
	(void)cls;
	unsigned char buf[256];
	return (jint)recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, NULL, NULL);
}

/* InputConsumer::sendFinishedSignal */
JNIEXPORT jint JNICALL Java_FakePlatform_finish(JNIEnv *env, jclass cls, jint fd)
{
	(void)env;
	(void)cls;
	unsigned char msg[24] = { 2 };
	return (jint)sendto(fd, msg, sizeof msg, MSG_DONTWAIT | MSG_NOSIGNAL, NULL, 0);
}
