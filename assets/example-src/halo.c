/*
 * halo.c -- exchange of the one-cell halo with the west, east, south and
 * north neighbours in the process grid.  Ranks on the physical boundary
 * have fewer neighbours; their missing neighbours are MPI_PROC_NULL.
 */
#include <mpi.h>

#include "solver.h"

enum { WEST, EAST, SOUTH, NORTH };

static int neighbour(const struct domain *d, int side)
{
    int px = d->px, py = d->py;

    switch (side) {
    case WEST:  px--; break;
    case EAST:  px++; break;
    case SOUTH: py--; break;
    case NORTH: py++; break;
    }
    if (px < 0 || px >= PX || py < 0 || py >= PY)
        return MPI_PROC_NULL;
    return py * PX + px;
}

void exchange_halo(struct domain *d, double *field)
{
    MPI_Request req[8];
    int side, n = 0;

    pack_faces(d, field);
    for (side = WEST; side <= NORTH; side++) {
        int peer = neighbour(d, side);
        if (peer == MPI_PROC_NULL)
            continue;
        MPI_Irecv(d->halo_in[side], d->face[side], MPI_DOUBLE, peer, side ^ 1,
                  MPI_COMM_WORLD, &req[n++]);
        MPI_Isend(d->halo_out[side], d->face[side], MPI_DOUBLE, peer, side,
                  MPI_COMM_WORLD, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    unpack_faces(d, field);
}
