/* jacobi.c -- one Jacobi sweep with a halo exchange */
#include <mpi.h>
#include <stdio.h>

#define N 512

static double grid[N + 2][N + 2];

static void sweep(double out[N + 2][N + 2])
{
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            out[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j]
                              + grid[i][j - 1] + grid[i][j + 1]);
}

int main(int argc, char **argv)
{
    static double next[N + 2][N + 2];
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sweep(next);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done: %s\n", "jacobi");
    MPI_Finalize();
    return 0;
}
