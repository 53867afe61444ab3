/* A stand-in for Android's libinput.so, for the touch-lag tracer's tests
 * (test_tracer_touch.c): InputConsumer reads each InputMessage from its
 * channel, a SOCK_SEQPACKET socket, with recv (bionic: recvfrom) and
 * answers each handled event with a "finished" message sent with send
 * (bionic: sendto). The calls go through this library's PLT, as libinput's
 * do. */
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

long fake_input_consume(int fd, void *buf, size_t len);
long fake_input_finish(int fd, unsigned seq);

/* consume one message (up to len bytes); returns what recvfrom returned */
long fake_input_consume(int fd, void *buf, size_t len)
{
	return (long)recvfrom(fd, buf, len, MSG_DONTWAIT, NULL, NULL);
}

/* send the finished signal for seq; returns what sendto returned */
long fake_input_finish(int fd, unsigned seq)
{
	unsigned char msg[24] = { 0 };
	msg[0] = 2; /* Type::FINISHED, with the event's sequence number */
	msg[8] = (unsigned char)seq;
	return (long)sendto(fd, msg, sizeof msg, MSG_DONTWAIT | MSG_NOSIGNAL, NULL, 0);
}
