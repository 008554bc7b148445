"""Cell lines named in abstracts, by the species they come from (:mod:`relx.genes.species`
finds them as organism mentions: ``HeLa`` is human, ``RAW264.7`` mouse, ``PC12`` rat), and
the expression hosts whose species is not that of the genes studied in them (``COS-7``,
``CHO``, ``Sf9``)."""

from __future__ import annotations

#: curated cell lines: taxon -> names (``-`` and spaces optional, also between letters and
#: digits); names in ``NEED_CELLS`` count only when followed by ``cell(s)``/``cell line``
CELL_LINES: dict[str, tuple[str, ...]] = {
    "9606": ("HeLa", "HEK293", "HEK293T", "HEK293FT", "HEK cells", "293T", "293 cells",
             "Jurkat", "MCF-7", "MCF10A", "A549", "HepG2", "Hep3B", "Huh7", "Huh-7.5", "K562",
             "U937", "THP-1", "HL-60", "HCT116", "HT-29", "SW480", "SW620", "Caco-2", "LoVo",
             "DLD-1", "SH-SY5Y", "SK-N-SH", "U2OS", "Saos-2", "MG-63", "PC-3", "DU145",
             "LNCaP", "22Rv1", "MDA-MB-231", "MDA-MB-468", "T47D", "ZR-75-1", "BT-474",
             "SK-BR-3", "HaCaT", "A431", "HUVEC", "HUVECs", "IMR-90", "WI-38", "MOLT-4",
             "CCRF-CEM", "CEM", "HEL", "KG-1", "Ramos", "Raji", "Daudi", "BJAB", "Namalwa",
             "HuT 78", "U87", "U-87 MG", "U251", "T98G", "A375", "PANC-1", "MIA PaCa-2",
             "OVCAR-3", "SKOV3", "H1299", "NCI-H1299", "H460", "Calu-3", "BEAS-2B", "HK-2",
             "HMEC-1", "NB4", "U266", "RPMI 8226", "HT1080", "A2780", "MOLM-13", "MV4-11",
             "NALM-6", "Kasumi-1", "HepaRG", "RD", "SUM159PT", "SUM159", "SUM149PT", "SUM149",
             "Hs578T", "BT-549", "MDA-MB-453", "MDA-MB-435", "HCC1937", "HCC1806", "MCF-10A",
             "HEC-1-A", "Ishikawa", "SK-HEP-1", "SMMC-7721", "BEL-7402", "MHCC97H",
             "Huh-7", "H446", "H1975", "HCC827", "PC-9", "HEK-293", "SK-MEL-28", "T24",
             "5637", "A498", "786-O", "Caki-1", "ACHN", "RPTEC", "IMR-32", "SK-N-BE(2)",
             "SK-N-AS", "SH-EP", "PLC/PRF/5", "SNU-449", "HCT-15", "HCT-8", "RKO", "SW48",
             "COLO 205", "KM12", "H358", "NCI-H358", "H1650", "H522", "HCC1954", "MDA-MB-361",
             "OVCAR-8", "CAOV3", "HTR-8/SVneo", "JEG-3", "BeWo", "JAR", "U-937", "Kasumi",
             "HL60", "HMC-1", "LAD2", "EA.hy926", "HeLa S3", "HEK293A", "U-2 OS", "SK-N-SK",
             "WM266-4", "SK-OV-3", "HepG2.2.15", "BxPC-3", "Capan-1", "AsPC-1", "HPAF-II",
             "NCI-H460", "NCI-H1975", "Karpas-299", "OCI-Ly3", "OCI-Ly10", "SU-DHL-4",
             "Molm-14", "HEL 92.1.7", "TF-1", "UT-7", "Mo7e", "CMK", "K-562"),
    "10090": ("NIH 3T3", "NIH/3T3", "3T3-L1", "Swiss 3T3", "3T3 cells", "RAW 264.7", "RAW cells",
              "C2C12", "EL4", "J774", "J774A.1", "BW5147", "CTLL-2", "WEHI-231", "WEHI-3",
              "70Z/3", "Ba/F3", "32D", "P388D1", "B16", "B16F10", "B16-F10", "L929",
              "Neuro-2a", "N2a", "Hepa1-6", "Hepa1c1c7", "MC3T3-E1", "4T1", "CT26", "MEF",
              "MEFs", "NSC-34", "BV-2", "ATDC5", "MIN6", "HT22", "HL-1", "YAC-1", "P815",
              "DO11.10", "MLE-12", "mIMCD-3", "bEnd.3", "A20", "F9", "P19", "LLC",
              "LbetaT2", "LβT2", "alphaT3-1", "GT1-7", "AtT-20", "AtT20", "TM4",
              "MA-10", "3T3-F442A", "C3H10T1/2", "C3H/10T1/2", "10T1/2", "MC38", "LLC1",
              "EMT6", "E0771", "B16-F1", "AML12", "NMuMG", "EpH4", "HC11", "4T07", "67NR",
              "TRAMP-C1", "RAW264.7", "J774.1", "NS0", "Sp2/0", "WEHI-164", "GL261", "NG108-15",
              "IMCD3", "mpkCCD", "ID8", "3T3-J2", "Pam212", "MLO-Y4", "IDG-SW3", "OP9", "MS-5",
              "CGR8", "BMDM", "BMDMs", "mESC", "mESCs", "Neuro2a", "MPC-11", "L1210",
              "Lewis lung carcinoma", "P388", "SVEC4-10", "MS1", "TC-1", "KPC",
              "MEL cells", "E14.5 cells", "ES-D3", "D3 cells", "MOVCAS", "CMT93", "CMT-93",
              "MODE-K", "STO", "BNL CL.2", "TIB-73", "NCTC 1469", "mK4", "M-1 cells"),
    "10116": ("PC12", "PC-12", "H9c2", "H4IIE", "INS-1", "INS-1E", "RBL-2H3", "GH3", "GH4C1",
              "FRTL-5", "IEC-6", "IEC-18", "NRK", "NRK-52E", "NRK-49F", "A7r5", "McA-RH7777",
              "Rat-1", "RINm5F", "C6", "L6", "H4IIE", "RIN-m5F", "BRL-3A", "Clone 9", "Rat2",
              "R2C", "INS-1 832/13", "HAPI", "RGC-5", "UMR-106", "ROS 17/2.8", "RLE-6TN",
              "RFL-6", "A10 cells", "NRK cells", "H-4-II-E", "MCA-RH7777", "IEC6", "AR42J",
              "GH4", "NR8383", "RSC96", "HSC-T6", "CFSC", "UMR 106-01", "Ins1"),
    "7227": ("S2", "Kc167", "Schneider 2"),
    "9031": ("DT40", "DF-1"),
}
NEED_CELLS = frozenset({"CEM", "HEL", "RD", "PC-3", "PC-9", "Ishikawa", "A20", "F9", "P19",
                         "LLC", "C6", "L6", "S2", "NRK", "B16", "32D", "HEK cells",
                         "RAW cells", "293 cells", "3T3 cells", "T24", "5637", "JAR", "TM4",
                         "RKO", "STO", "MS1", "TC-1", "KPC", "OP9", "MS-5", "HAPI", "R2C",
                         "Kasumi", "CMK", "TF-1", "UT-7", "KM12", "ID8", "mK4", "P388", "EMT6",
                         "CFSC", "Ins1", "GH4", "MEL cells", "D3 cells", "A10 cells",
                         "NRK cells", "E14.5 cells", "M-1 cells", "NS0", "HC11"})
#: expression hosts: their organism is not the organism of the genes studied in them
HOST_LINES: dict[str, tuple[str, ...]] = {
    "9534": ("COS", "COS-1", "COS-7", "CV-1", "Vero"),
    "10029": ("CHO", "CHO-K1"),
    "10036": ("BHK", "BHK-21"),
    "9615": ("MDCK",),
    "7108": ("Sf9", "Sf21"),
}
