/*
 * solver.c -- driver of a small ADI solver for a 3-D heat problem.
 *
 * The global grid is split over a PX x PY process grid in x and y; every
 * rank owns a column of NZ planes.  One iteration computes the right-hand
 * side, exchanges halos with the grid neighbours, sweeps in x, y and z and
 * transposes the z pencils with an all-to-all.
 *
 * usage: solver [-b interval] [-w] [niter]
 *   -b N  synchronise all ranks every N iterations (default 1)
 *   -w    weight the partition by the cost model of each subdomain, so
 *         ranks on the physical boundary get fewer cells
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

static int barrier_interval = 1;
static int weighted = 0;

static void init(struct domain *d, int *argc, char ***argv)
{
    int i;

    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->size);
    if (d->size != PX * PY) {
        if (d->rank == 0)
            fprintf(stderr, "solver: needs %d ranks, got %d\n", PX * PY, d->size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (i = 1; i < *argc; i++) {
        if (strcmp((*argv)[i], "-b") == 0 && i + 1 < *argc)
            barrier_interval = atoi((*argv)[++i]);
        else if (strcmp((*argv)[i], "-w") == 0)
            weighted = 1;
        else
            d->niter = atoi((*argv)[i]);
    }
    d->px = d->rank % PX;
    d->py = d->rank / PX;
    partition(d, weighted);
    d->u = calloc(field_size(d), sizeof(double));
    d->rhs = calloc(field_size(d), sizeof(double));
    d->work = calloc(field_size(d), sizeof(double));
    d->pencil = calloc(field_size(d), sizeof(double));
}

static void compute_rhs(struct domain *d)
{
    int i, j, k;

    for (k = 1; k <= d->nz; k++)
        for (j = 1; j <= d->ny; j++)
            for (i = 1; i <= d->nx; i++)
                d->rhs[IDX(d, i, j, k)] = d->u[IDX(d, i, j, k)]
                    + DT * (d->u[IDX(d, i - 1, j, k)] + d->u[IDX(d, i + 1, j, k)]
                          + d->u[IDX(d, i, j - 1, k)] + d->u[IDX(d, i, j + 1, k)]
                          + d->u[IDX(d, i, j, k - 1)] + d->u[IDX(d, i, j, k + 1)]
                          - 6.0 * d->u[IDX(d, i, j, k)]);
    apply_boundary(d, d->rhs);
}

static void y_solve(struct domain *d)
{
    int i, k;

    for (k = 1; k <= d->nz; k++)
        for (i = 1; i <= d->nx; i++)
            thomas(&d->u[IDX(d, i, 1, k)], &d->rhs[IDX(d, i, 1, k)],
                   d->ny, d->nx + 2, d->work);
}

static void z_solve(struct domain *d)
{
    int n;

    for (n = 0; n < d->nx * d->ny / d->size; n++)
        thomas(&d->pencil[n * NZ], &d->pencil[n * NZ], NZ, 1, d->work);
}

static double solver_iterate(struct domain *d, int iter)
{
    compute_rhs(d);
    exchange_halo(d, d->rhs);
    x_solve(d->u, d->rhs, d->nx, d->ny, d->nz);
    y_solve(d);
    MPI_Alltoall(d->u, d->chunk, MPI_DOUBLE, d->pencil, d->chunk,
                 MPI_DOUBLE, MPI_COMM_WORLD);
    z_solve(d);
    if (iter % barrier_interval == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    return residual(d);
}

static void finalize(struct domain *d, double res)
{
    if (d->rank == 0)
        printf("solver: %d iterations, residual %.3e\n", d->niter, res);
    free(d->u);
    free(d->rhs);
    free(d->work);
    free(d->pencil);
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    struct domain d = { .niter = 100 };
    double res = 0.0;
    int iter;

    init(&d, &argc, &argv);
    for (iter = 1; iter <= d.niter; iter++)
        res = solver_iterate(&d, iter);
    finalize(&d, res);
    return 0;
}
