/*
 * solver.h -- data layout shared by the solver sources.  The helpers
 * declared at the end (partitioning, boundary conditions, the Thomas
 * algorithm, face packing) live in grid.c, which this example omits.
 */
#ifndef SOLVER_H
#define SOLVER_H

#define PX 4                    /* process grid */
#define PY 4
#define NX 256                  /* global grid */
#define NY 256
#define NZ 128
#define DT 1.0e-3

struct domain {
    int rank, size, niter;
    int px, py;                 /* position in the process grid */
    int nx, ny, nz;             /* local extent without halos */
    int chunk;                  /* all-to-all block size */
    int face[4];                /* halo face sizes */
    double *u, *rhs, *work, *pencil;
    double *halo_in[4], *halo_out[4];
};

/* index of cell (i, j, k) in a field with a one-cell halo */
#define IDX(d, i, j, k) (((k) * ((d)->ny + 2) + (j)) * ((d)->nx + 2) + (i))

void partition(struct domain *d, int weighted);
long field_size(const struct domain *d);
void apply_boundary(struct domain *d, double *field);
void thomas(double *x, const double *r, int n, int stride, double *work);
void pack_faces(struct domain *d, const double *field);
void unpack_faces(struct domain *d, double *field);
double residual(const struct domain *d);

void exchange_halo(struct domain *d, double *field);
void x_solve(double *u, const double *rhs, int nx, int ny, int nz);

#endif
