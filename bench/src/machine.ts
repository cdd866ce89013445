// The machine a run happened on, for the README and results/latest.json.
import os from 'node:os';

export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  arch: string;
  kernel: string;
  date: string;
  /** One line for the README: cores, CPU, memory, Node, kernel. */
  line: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  const cpuModel = cpus[0]?.model.trim() ?? 'unknown CPU';
  const memoryGiB = Math.round(os.totalmem() / 2 ** 30);
  const kernel = os.release();
  const line =
    `${cpus.length} cores (${cpuModel}), ${memoryGiB} GiB RAM, Node ${process.version}, ` +
    `${os.type()} ${kernel} ${process.arch}`;
  return {
    cores: cpus.length,
    cpuModel,
    memoryGiB,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    kernel,
    date: new Date().toISOString().slice(0, 10),
    line,
  };
}
