import Caluna
