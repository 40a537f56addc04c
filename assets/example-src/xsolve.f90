! xsolve.f90 -- implicit sweep in x: one tridiagonal system per (j, k)
! line, solved with the Thomas algorithm.  Called from C as x_solve.
module xsolve_mod
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  private
  public :: x_solve

  real(c_double), parameter :: dt = 1.0d-3

contains

  subroutine x_solve(u, rhs, nx, ny, nz) bind(c, name="x_solve")
    integer(c_int), value :: nx, ny, nz
    real(c_double), intent(inout) :: u(0:nx+1, 0:ny+1, 0:nz+1)
    real(c_double), intent(in) :: rhs(0:nx+1, 0:ny+1, 0:nz+1)
    real(c_double) :: c(nx), d(nx), m
    integer :: i, j, k

    do k = 1, nz
      do j = 1, ny
        ! forward elimination
        c(1) = -dt / (1.0d0 + 2.0d0 * dt)
        d(1) = rhs(1, j, k) / (1.0d0 + 2.0d0 * dt)
        do i = 2, nx
          m = 1.0d0 + 2.0d0 * dt + dt * c(i - 1)
          c(i) = -dt / m
          d(i) = (rhs(i, j, k) + dt * d(i - 1)) / m
        end do
        ! back substitution
        u(nx, j, k) = d(nx)
        do i = nx - 1, 1, -1
          u(i, j, k) = d(i) - c(i) * u(i + 1, j, k)
        end do
      end do
    end do
  end subroutine x_solve

end module xsolve_mod
