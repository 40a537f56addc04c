! smooth.f90 -- free-form smoother
module smooth_mod
  implicit none
contains
  subroutine smooth(u, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    integer :: i
    do i = 2, n - 1
      u(i) = 0.5d0 * u(i) + &
             0.25d0 * (u(i - 1) + u(i + 1))
    end do
    print *, "smoothed", n
  end subroutine smooth
end module smooth_mod
