#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n; MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &n);
  double buf[1000] = {0}; int ib[100]={0}; char cb[64]={0};
  MPI_Request rq[4]; MPI_Status st;
  if (r == 0) { MPI_Send(buf, 10, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD); MPI_Send(ib, 7, MPI_INT, 2, 1, MPI_COMM_WORLD);}
  if (r == 1) MPI_Recv(buf, 10, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
  if (r == 2) MPI_Recv(ib, 7, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  MPI_Isend(cb, 3, MPI_CHAR, (r+1)%n, 9, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(cb+10, 3, MPI_CHAR, (r+n-1)%n, 9, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(buf, 2, MPI_DOUBLE, (r+2)%n, 8, MPI_COMM_WORLD, &rq[2]);
  MPI_Irecv(buf+100, 2, MPI_DOUBLE, (r+n-2)%n, 8, MPI_COMM_WORLD, &rq[3]);
  MPI_Wait(&rq[1], &st);
  MPI_Wait(&rq[0], &st);
  MPI_Waitall(2, rq+2, MPI_STATUSES_IGNORE);
  int flag; MPI_Isend(cb, 1, MPI_BYTE, (r+1)%n, 3, MPI_COMM_WORLD, &rq[0]);
  MPI_Recv(cb+1, 1, MPI_BYTE, (r+n-1)%n, 3, MPI_COMM_WORLD, &st);
  MPI_Test(&rq[0], &flag, &st); if (!flag) MPI_Wait(&rq[0], &st);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(buf, 4, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Reduce(buf, buf+500, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(buf, buf+500, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Alltoall(ib, 2, MPI_INT, ib+50, 2, MPI_INT, MPI_COMM_WORLD);
  int sc[4]={1,2,3,4}, sd[4]={0,1,3,6}, rc[4], rd[4]={0,10,20,30};
  for (int i=0;i<4;i++) rc[i]=r+1;
  MPI_Alltoallv(ib, sc, sd, MPI_INT, ib+50, rc, rd, MPI_INT, MPI_COMM_WORLD);
  MPI_Gather(buf, 2, MPI_DOUBLE, buf+500, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int gc[4]={1,2,3,4}, gd[4]={0,1,3,6};
  MPI_Gatherv(buf, r+1, MPI_DOUBLE, buf+500, gc, gd, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  MPI_Scatter(buf, 2, MPI_DOUBLE, buf+500, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(buf, gc, gd, MPI_DOUBLE, buf+500, r+1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Allgather(buf, 2, MPI_DOUBLE, buf+500, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, r+1, MPI_DOUBLE, buf+500, gc, gd, MPI_DOUBLE, MPI_COMM_WORLD);
  int rsc[4]={1,1,2,2};
  MPI_Reduce_scatter(buf, buf+500, rsc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm nc, dc; MPI_Comm_split(MPI_COMM_WORLD, r%2, r, &nc);
  MPI_Comm_dup(MPI_COMM_WORLD, &dc);
  MPI_Bcast(buf, 1, MPI_DOUBLE, 0, nc);
  MPI_Barrier(dc);
  MPI_Sendrecv(buf, 3, MPI_DOUBLE, (r+1)%n, 4, buf+100, 3, MPI_DOUBLE, (r+n-1)%n, 4, MPI_COMM_WORLD, &st);
  double x = 0; for (int i = 0; i < 1000000; i++) x += i*0.5;
  MPI_Scan(buf, buf+500, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(buf, buf+500, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  MPI_Comm_free(&nc);
  if (x < 0) printf("x\n");
  MPI_Finalize();
  return 0;
}
