/** Versions every report carries; a test keeps them equal to package.json. */
export const EOS_SIM_VERSION = '0.1.0';
/** The pinned seedrandom version: its output stream is part of the replay contract. */
export const SEEDRANDOM_VERSION = '3.0.5';
