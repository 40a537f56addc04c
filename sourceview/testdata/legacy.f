! a .f file written in free form, as many modern codes do
subroutine scale(x, n)
  integer :: n
  real :: x(n)
  x = 2.0 * &
      x
end subroutine scale
