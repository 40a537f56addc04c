#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
static double work(int n){double s=0;for(int i=0;i<n;i++)s+=i*0.5;return s;}
static void *thr(void *a){
  long id=(long)a; double s=0;
  PAPI_hl_region_begin("thread_work");
  for(int k=0;k<3;k++){PAPI_hl_region_begin("inner"); s+=work(200000*(id+1)); PAPI_hl_region_end("inner");}
  PAPI_hl_read("thread_work");
  s+=work(100000);
  PAPI_hl_region_end("thread_work");
  return (void*)(long)(s>0);
}
int main(){
  double s=0;
  PAPI_hl_region_begin("main");
  PAPI_hl_region_begin("init"); s+=work(300000); PAPI_hl_region_end("init");
  for(int i=0;i<2;i++){ PAPI_hl_region_begin("compute"); s+=work(500000); PAPI_hl_region_begin("inner"); s+=work(100000); PAPI_hl_region_end("inner"); PAPI_hl_region_end("compute"); }
  pthread_t t[2]; for(long i=0;i<2;i++) pthread_create(&t[i],0,thr,(void*)i); for(int i=0;i<2;i++) pthread_join(t[i],0);
  PAPI_hl_region_end("main");
  PAPI_hl_stop();
  printf("%f\n", s);
  return 0;
}
