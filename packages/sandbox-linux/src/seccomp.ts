// A classic-BPF seccomp program that refuses the two ioctls able to push bytes into a
// terminal's input queue (TIOCSTI) or drive the console (TIOCLINUX), and allows everything else.
// It replaces bubblewrap's --new-session (which costs the controlling terminal), as flatpak does.
import { ProcmuxError } from '@procmux/core-types';

/** Architectures the filter is generated for (`process.arch` names). */
export type SeccompArch = 'x64' | 'arm64';

export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;

// <linux/audit.h> and <asm/unistd.h>
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const AUDIT_ARCH_ARM = 0x40000028;
const X32_SYSCALL_BIT = 0x40000000;

// <linux/filter.h>, <linux/seccomp.h>
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (low word first on these
// little-endian arches). ioctl's request is an `unsigned int` in the kernel, so only the low
// word is compared: a request with junk in the high word is the same request (CVE-2019-10063).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG1_LOW = 24;

/** Native and compat ABIs a host of that arch runs, with ioctl's number in each. */
const ABIS: Record<SeccompArch, { audit: number; ioctl: number; x32?: boolean }[]> = {
  x64: [
    { audit: AUDIT_ARCH_X86_64, ioctl: 16, x32: true },
    { audit: AUDIT_ARCH_I386, ioctl: 54 },
  ],
  arm64: [
    { audit: AUDIT_ARCH_AARCH64, ioctl: 29 },
    { audit: AUDIT_ARCH_ARM, ioctl: 54 },
  ],
};

type Insn = { code: number; jt?: string; jf?: string; k: number } | { label: string };

/**
 * The filter for `arch` as the bytes `bwrap --seccomp FD` reads (struct sock_filter[]).
 * An ABI the table does not know is killed, so no syscall table escapes the check.
 */
export function seccompProgram(arch: string): Buffer {
  const abis = ABIS[arch as SeccompArch];
  if (!abis) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `the sandbox's seccomp filter is built for x64 and arm64 only (this host is ${arch})`,
    );
  }
  const program: Insn[] = [{ code: LD_W_ABS, k: OFFSET_ARCH }];
  for (const [i, abi] of abis.entries()) program.push({ code: JEQ_K, k: abi.audit, jt: `abi${i}` });
  program.push({ code: RET_K, k: RET_KILL_PROCESS });
  abis.forEach((abi, i) => {
    program.push({ label: `abi${i}` }, { code: LD_W_ABS, k: OFFSET_NR });
    // x32 calls share the x86_64 audit arch with bit 30 set in nr; nothing here needs them.
    if (abi.x32) program.push({ code: JSET_K, k: X32_SYSCALL_BIT, jt: 'deny' });
    program.push({ code: JEQ_K, k: abi.ioctl, jt: 'request', jf: 'allow' });
  });
  program.push(
    { label: 'request' },
    { code: LD_W_ABS, k: OFFSET_ARG1_LOW },
    { code: JEQ_K, k: TIOCSTI, jt: 'deny' },
    { code: JEQ_K, k: TIOCLINUX, jt: 'deny' },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'deny' },
    { code: RET_K, k: RET_ERRNO | EPERM },
  );
  return assemble(program);
}

/** Resolves labels to the forward jump offsets BPF wants and packs 8-byte instructions. */
function assemble(program: Insn[]): Buffer {
  const labels = new Map<string, number>();
  const code: Exclude<Insn, { label: string }>[] = [];
  for (const insn of program) {
    if ('label' in insn) labels.set(insn.label, code.length);
    else code.push(insn);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((insn, at) => {
    const jump = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const offset = labels.get(label)! - at - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp: jump to ${label} out of range`);
      return offset;
    };
    out.writeUInt16LE(insn.code, at * 8);
    out.writeUInt8(jump(insn.jt), at * 8 + 2);
    out.writeUInt8(jump(insn.jf), at * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, at * 8 + 4);
  });
  return out;
}
