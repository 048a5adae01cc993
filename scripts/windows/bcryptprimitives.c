/* A stand-in for Windows 10's bcryptprimitives.dll, for running sp960's Windows build
 * under Wine 8, which lacks it: Rust's std (1.96) takes its random bytes from
 * ProcessPrng there. This one passes the call on to advapi32's RtlGenRandom
 * (SystemFunction036). Only scripts/test-windows.sh uses it; real Windows has the DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	return SystemFunction036(data, (ULONG)length);
}
