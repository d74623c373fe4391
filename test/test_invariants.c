/* test/test_invariants.c — the engine checks its own invariants while it
 * runs. In the debug builds (asserts on, as ./test.sh builds) the cycle
 * loop calls mpp_sim_check from assert every MPP_SIM_CHECK_EVERY cycles: a
 * run whose state is corrupted on purpose — a credit counter, the count of
 * injected flits — must stop with the assertion, and
 * the same run left alone must finish. (The source-queue and receive-FIFO
 * counts are checked by the same call; test_sim and test_node exercise
 * them on real runs.) Each case runs in a child process,
 * whose death by SIGABRT and assertion message the parent checks. In
 * release builds (NDEBUG) the checks are compiled away: the test is
 * skipped (exit 77). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/network.h"
#include "core/sim.h"
#include "test/testutil.h"

enum { CLEAN = 0, CREDIT = 1, FLITS = 2 };

#ifndef NDEBUG /* the runs below only mean something with the checks on */

/* A loaded 4x4 mesh: 300 cycles of uniform traffic at 0.4, then the
 * corruption, then two check intervals. Exits 0 when the run finishes. */
static int child(int what)
{
    mpp_sim_config c;
    mpp_config_defaults(&c);
    test_mesh(&c, 4, 4);
    test_set(&c, "workload.rate", "0.4");
    test_set(&c, "workload.warmup", "0");
    test_set(&c, "workload.measure", "100000");
    mpp_err err;
    mpp_sim *s = mpp_sim_create(&c, &err);
    if (!s || test_failures)
        return 3;
    if (mpp_sim_step(s, 300, &err))
        return 4;
    mpp_net *n = mpp_sim_network(s);
    if (what == CREDIT) {
        /* an output VC of router 5 believes it has one more free slot */
        mpp_port_ovc(n, mpp_net_port(n, n->topo->port_base[5]), 0)->credits++;
    } else if (what == FLITS) {
        /* a flit counted as injected that is nowhere */
        n->flits_injected++;
    }
    int rc = mpp_sim_step(s, 2 * MPP_SIM_CHECK_EVERY, &err);
    mpp_sim_destroy(s);
    return rc ? 5 : 0;
}

/* Run child(what) in a process; its status and what it wrote on stderr. */
static int run_child(int what, char *msg, size_t len)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 2);
        _exit(child(what));
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < len && (r = read(fd[0], msg + got, len - 1 - got)) > 0)
        got += (size_t)r;
    msg[got] = '\0';
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

#endif

int main(void)
{
#ifdef NDEBUG
    puts("release build: the invariant checks are compiled away (skipped)");
    return 77;
#else
    static const char *const names[] = {"clean run", "corrupted credit counter",
                                        "flit counted but nowhere"};
    char msg[4096];
    for (int what = CLEAN; what <= FLITS; what++) {
        int st = run_child(what, msg, sizeof msg);
        if (what == CLEAN) {
            CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: status %d: %s", names[what], st,
                   msg);
            continue;
        }
        bool fired = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(msg, "mpp_sim_check");
        CHECKF(fired, "%s: the assertion did not fire (status %d): %s", names[what], st, msg);
        if (fired)
            printf("%s: assertion fired: %.*s\n", names[what],
                   (int)strcspn(msg, "\n"), msg);
    }
    TEST_DONE();
#endif
}
